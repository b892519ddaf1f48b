#include "archive/s3_url.hpp"

#include <algorithm>

#include "base/text.hpp"

namespace koordq::archive {

std::string s3_uri_encode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || base::is_ascii_digit(c) || c == '-' ||
                            c == '_' || c == '.' || c == '~';
    if (unreserved || (keep_slash && c == '/')) {
      out += c;
    } else {
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
    }
  }
  return out;
}

std::string s3_canonical_query(S3Query query) {
  for (auto& [name, value] : query) {
    name = s3_uri_encode(name, false);
    value = s3_uri_encode(value, false);
  }
  std::sort(query.begin(), query.end());
  std::string out;
  for (const auto& [name, value] : query) {
    if (!out.empty()) out += '&';
    out += name + "=" + value;
  }
  return out;
}

Status check_s3_bucket_name(std::string_view bucket) {
  const auto fail = [&](const char* why) {
    return make_error("bucket name " + base::quoted(bucket) + " " + why +
                      "; S3 bucket names are 3 to 63 characters of a-z, 0-9, '.' and '-'");
  };
  if (bucket.size() < 3 || bucket.size() > 63) return fail("has the wrong length");
  for (const char c : bucket)
    if (!((c >= 'a' && c <= 'z') || base::is_ascii_digit(c) || c == '.' || c == '-'))
      return fail("has a character S3 does not allow");
  const auto letter_or_digit = [](char c) { return (c >= 'a' && c <= 'z') || base::is_ascii_digit(c); };
  if (!letter_or_digit(bucket.front()) || !letter_or_digit(bucket.back()))
    return fail("must start and end with a letter or digit");
  return ok_status();
}

std::string s3_request_url(const S3Endpoint& endpoint, S3Addressing addressing, std::string_view bucket,
                           std::string_view key, const S3Query& query) {
  std::string url = endpoint.scheme + "://";
  if (addressing == S3Addressing::kVirtualHost) {
    url += std::string(bucket) + "." + endpoint.authority() + "/";
  } else {
    url += endpoint.authority() + "/" + std::string(bucket);
    if (!key.empty()) url += "/";
  }
  url += s3_uri_encode(key, true);
  if (!query.empty()) url += "?" + s3_canonical_query(query);
  return url;
}

}  // namespace koordq::archive
