// S3's XML answers parsed into the types of s3_objects.hpp: error documents, ListObjectsV2 pages
// and Object Lock configurations. Each parser rejects a document that is not what S3 sends with a
// message naming what is missing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "archive/s3_objects.hpp"
#include "base/result.hpp"

namespace koordq::archive {

struct S3ErrorDocument {
  std::string code;
  std::string message;
};

// <Error><Code>…</Code><Message>…</Message></Error>; nullopt when `body` is not one.
std::optional<S3ErrorDocument> parse_s3_error_document(std::string_view body);

Result<ListObjectsPage> parse_list_objects_v2(std::string_view body);

Result<ObjectLockConfiguration> parse_object_lock_configuration(std::string_view body);

std::optional<ObjectLockMode> parse_object_lock_mode(std::string_view text);

// The pieces of S3's answers that headers and XML share: an ETag without its quotes, and a
// decimal byte count.
std::string etag_without_quotes(std::string etag);
std::optional<std::uint64_t> parse_byte_count(std::string_view text);

}  // namespace koordq::archive
