// The URL of an S3 request, in the form SigV4 signs: the key percent-encoded as S3's canonical URI
// encodes it, and the query already canonical (sorted by name, every value encoded, `name=` for a
// bare sub-resource), so libcurl's signer, which signs the URL it is given as it is, and the server
// agree on the canonical request.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "archive/s3_config.hpp"
#include "base/result.hpp"

namespace koordq::archive {

using S3Query = std::vector<std::pair<std::string, std::string>>;

// RFC 3986 unreserved characters stay, every other byte becomes %XX (upper-case hex); '/' stays
// when `keep_slash` (object keys in paths).
std::string s3_uri_encode(std::string_view text, bool keep_slash);

// name=value pairs, encoded and sorted by name then value, joined by '&'.
std::string s3_canonical_query(S3Query query);

// S3's bucket naming rules: 3 to 63 of a-z 0-9 . -, starting and ending with a letter or digit.
Status check_s3_bucket_name(std::string_view bucket);

// scheme://host[:port]/bucket/key?query (path-style) or scheme://bucket.host[:port]/key?query
// (virtual-host). An empty key addresses the bucket itself.
std::string s3_request_url(const S3Endpoint& endpoint, S3Addressing addressing, std::string_view bucket,
                           std::string_view key, const S3Query& query);

}  // namespace koordq::archive
