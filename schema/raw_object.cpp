#include "schema/raw_object.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include "base/hex.hpp"
#include "schema/json_decode.hpp"
#include "schema/json_secret_splice.hpp"

namespace koordq::schema {
namespace {

constexpr std::string_view kMarkerPrefix = "<redacted hmac-sha256:";
// Markers of journals written before the key: kept as they are, recognised as markers.
constexpr std::string_view kUnkeyedMarkerPrefix = "<redacted sha256:";
constexpr std::string_view kMarkerSuffix = ">";
constexpr size_t kDigestHexBytes = 64;

// The installed key; its generation tells each thread's MAC context to take it up.
struct InstalledKey {
  std::string bytes;
  uint64_t generation = 0;
};
std::atomic<const InstalledKey*> installed_key{nullptr};
std::atomic<uint64_t> key_generations{0};

const InstalledKey* install(std::string bytes) {
  // Never freed: a thread may still read the previous key (one per install, a few per process).
  // Every key stays listed, so that it stays reachable.
  static std::mutex mu;
  static auto* keys = new std::vector<std::unique_ptr<const InstalledKey>>();
  std::lock_guard lock(mu);
  keys->push_back(
      std::make_unique<const InstalledKey>(InstalledKey{std::move(bytes), key_generations.fetch_add(1) + 1}));
  const InstalledKey* key = keys->back().get();
  installed_key.store(key, std::memory_order_release);
  return key;
}

// The key in use: the installed one, else a random key of this process's own (never none: an
// unkeyed digest of a short secret can be guessed).
const InstalledKey& current_key() {
  if (const InstalledKey* key = installed_key.load(std::memory_order_acquire)) return *key;
  static std::once_flag once;
  std::call_once(once, [] {
    if (installed_key.load(std::memory_order_acquire) != nullptr) return;
    std::string bytes(kRedactionKeyBytes, '\0');
    if (RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(bytes.size())) != 1) {
      throw std::runtime_error("no randomness from OpenSSL for the redaction key");
    }
    install(std::move(bytes));
  });
  return *installed_key.load(std::memory_order_acquire);
}

struct MacFree {
  void operator()(EVP_MAC* mac) const { EVP_MAC_free(mac); }
};
struct MacContextFree {
  void operator()(EVP_MAC_CTX* context) const { EVP_MAC_CTX_free(context); }
};

// One HMAC-SHA256 context per thread, keyed once per key: re-initialising it without a key keeps
// the key's precomputed pads, so a marker costs about two SHA-256 compressions more than a digest.
bool keyed_digest(std::string_view bytes, unsigned char* out, size_t* size) {
  static const std::unique_ptr<EVP_MAC, MacFree> mac(EVP_MAC_fetch(nullptr, "HMAC", nullptr));
  thread_local std::unique_ptr<EVP_MAC_CTX, MacContextFree> context(mac ? EVP_MAC_CTX_new(mac.get()) : nullptr);
  thread_local uint64_t keyed_generation = 0;
  if (context == nullptr) return false;
  const InstalledKey& key = current_key();
  if (keyed_generation != key.generation) {
    char digest_name[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest_name, 0),
                                 OSSL_PARAM_construct_end()};
    if (EVP_MAC_init(context.get(), reinterpret_cast<const unsigned char*>(key.bytes.data()), key.bytes.size(),
                     params) != 1) {
      return false;
    }
    keyed_generation = key.generation;
  } else if (EVP_MAC_init(context.get(), nullptr, 0, nullptr) != 1) {
    return false;
  }
  return EVP_MAC_update(context.get(), reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()) == 1 &&
         EVP_MAC_final(context.get(), out, size, EVP_MAX_MD_SIZE) == 1;
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

void install_redaction_key(std::string_view key) {
  install(std::string(key));
}

std::string redaction_marker(std::string_view original) {
  unsigned char digest_bytes[EVP_MAX_MD_SIZE];
  size_t digest_size = 0;
  if (!keyed_digest(original, digest_bytes, &digest_size)) {
    // Without a digest nothing of the value may be kept.
    return std::string(kMarkerPrefix) + std::string(kDigestHexBytes, '0') + std::string(kMarkerSuffix);
  }
  std::string marker(kMarkerPrefix);
  marker.reserve(kMarkerPrefix.size() + kDigestHexBytes + kMarkerSuffix.size());
  marker += base::hex_encode(std::string_view(reinterpret_cast<const char*>(digest_bytes), digest_size));
  marker += kMarkerSuffix;
  return marker;
}

bool is_redaction_marker(std::string_view text) {
  const std::string_view prefix = text.starts_with(kMarkerPrefix) ? kMarkerPrefix : kUnkeyedMarkerPrefix;
  if (text.size() != prefix.size() + kDigestHexBytes + kMarkerSuffix.size() || !text.starts_with(prefix) ||
      !text.ends_with(kMarkerSuffix)) {
    return false;
  }
  for (char c : text.substr(prefix.size(), kDigestHexBytes)) {
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
