// The values the S3 client sends and returns: object listings, Object Lock retention and
// configuration, and what a PUT or HEAD reports about a version.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace koordq::archive {

enum class ObjectLockMode { kGovernance, kCompliance };
const char* object_lock_mode_name(ObjectLockMode mode);  // "GOVERNANCE", "COMPLIANCE"

// A version's retention: it cannot be deleted or overwritten before `retain_until_unix_nanos`
// (sent in whole seconds); GOVERNANCE yields to a user with the bypass right.
struct ObjectRetention {
  ObjectLockMode mode = ObjectLockMode::kCompliance;
  std::int64_t retain_until_unix_nanos = 0;
};

struct PutObjectResult {
  std::string etag;        // without quotes
  std::string version_id;  // empty on a bucket without versioning
};

struct ObjectHead {
  std::uint64_t size = 0;
  std::string etag;
  std::string version_id;
  std::string last_modified;  // as the server wrote it (RFC 7231 date)
  std::optional<ObjectRetention> retention;
};

// A byte range of a GET, inclusive as HTTP's Range header is; `last` absent means to the end.
struct ByteRange {
  std::uint64_t first = 0;
  std::optional<std::uint64_t> last;
};

struct ListedObject {
  std::string key;
  std::uint64_t size = 0;
  std::string etag;
  std::string last_modified;  // ISO 8601, as ListObjectsV2 writes it
};

struct ListObjectsPage {
  std::vector<ListedObject> objects;
  bool truncated = false;
  std::string next_continuation_token;  // set when truncated
};

struct ObjectLockConfiguration {
  bool enabled = false;
  std::optional<ObjectLockMode> default_mode;  // the bucket's default retention, if it has one
  std::optional<int> default_days;
  std::optional<int> default_years;
};

}  // namespace koordq::archive
