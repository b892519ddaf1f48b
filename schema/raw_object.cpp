#include "schema/raw_object.hpp"

#include <memory>

#include <openssl/evp.h>

#include "schema/json_decode.hpp"
#include "schema/json_secret_splice.hpp"

namespace koordq::schema {
namespace {

constexpr std::string_view kMarkerPrefix = "<redacted sha256:";
constexpr std::string_view kMarkerSuffix = ">";
constexpr size_t kDigestHexBytes = 64;

// Fetched once: EVP_sha256() would make every digest look the implementation up again.
const EVP_MD* sha256() {
  static const EVP_MD* const md = [] {
    const EVP_MD* fetched = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return fetched != nullptr ? fetched : EVP_sha256();
  }();
  return md;
}

struct DigestContextFree {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};

// One context per thread, reused: creating one per digest costs as much as the digest.
bool digest(std::string_view bytes, unsigned char* out, unsigned int* size) {
  thread_local std::unique_ptr<EVP_MD_CTX, DigestContextFree> context(EVP_MD_CTX_new());
  return context != nullptr && EVP_DigestInit_ex(context.get(), sha256(), nullptr) == 1 &&
         EVP_DigestUpdate(context.get(), bytes.data(), bytes.size()) == 1 &&
         EVP_DigestFinal_ex(context.get(), out, size) == 1;
}

bool is_lower_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

}  // namespace

Result<RawObjectMode> parse_raw_object_mode(std::string_view text) {
  if (text == "off") return RawObjectMode::kOff;
  if (text == "redacted") return RawObjectMode::kRedacted;
  if (text == "full") return RawObjectMode::kFull;
  return make_error("expected off, redacted or full, got \"" + std::string(text) + "\"");
}

const char* raw_object_mode_name(RawObjectMode mode) {
  switch (mode) {
    case RawObjectMode::kOff:
      return "off";
    case RawObjectMode::kRedacted:
      return "redacted";
    case RawObjectMode::kFull:
      return "full";
  }
  return "redacted";
}

std::string redaction_marker(std::string_view original) {
  unsigned char digest_bytes[EVP_MAX_MD_SIZE];
  unsigned int digest_size = 0;
  if (!digest(original, digest_bytes, &digest_size)) {
    // Without a digest nothing of the value may be kept.
    return std::string(kMarkerPrefix) + std::string(kDigestHexBytes, '0') + std::string(kMarkerSuffix);
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string marker(kMarkerPrefix);
  marker.reserve(kMarkerPrefix.size() + kDigestHexBytes + kMarkerSuffix.size());
  for (unsigned int i = 0; i < digest_size; ++i) {
    marker += kHex[digest_bytes[i] >> 4];
    marker += kHex[digest_bytes[i] & 0x0F];
  }
  marker += kMarkerSuffix;
  return marker;
}

bool is_redaction_marker(std::string_view text) {
  if (text.size() != kMarkerPrefix.size() + kDigestHexBytes + kMarkerSuffix.size() ||
      text.substr(0, kMarkerPrefix.size()) != kMarkerPrefix || text.substr(text.size() - 1) != kMarkerSuffix) {
    return false;
  }
  for (char c : text.substr(kMarkerPrefix.size(), kDigestHexBytes)) {
    if (!is_lower_hex(c)) return false;
  }
  return true;
}

Result<std::string> redact_json(std::string_view json) {
  const DecodeLimits limits;
  if (json.size() > limits.max_list_bytes) {
    return make_error(std::to_string(json.size()) + " bytes exceed the limit of " +
                      std::to_string(limits.max_list_bytes) + " bytes");
  }
  simdjson::dom::parser parser;
  if (simdjson::error_code code = parser.allocate(json.size(), limits.max_depth); code != simdjson::SUCCESS) {
    return make_error(simdjson::error_message(code));
  }
  simdjson::dom::element root;
  if (simdjson::error_code code = parser.parse(json.data(), json.size(), true).get(root); code != simdjson::SUCCESS) {
    return make_error(std::string("malformed JSON: ") + simdjson::error_message(code));
  }
  return json_detail::redact_as_received(json);
}

}  // namespace koordq::schema
