#include "journal/hash_chain.hpp"

#include <cstring>
#include <stdexcept>

#include <openssl/evp.h>

#include "base/hex.hpp"

namespace koordq::journal {
namespace {

struct DigestContext {
  DigestContext() : ctx(EVP_MD_CTX_new()) {
    if (ctx == nullptr) throw std::bad_alloc();
  }
  ~DigestContext() { EVP_MD_CTX_free(ctx); }
  DigestContext(const DigestContext&) = delete;
  DigestContext& operator=(const DigestContext&) = delete;
  EVP_MD_CTX* ctx;
};

Hash digest(std::string_view a, std::string_view b) {
  thread_local DigestContext d;
  Hash out{};
  unsigned int len = 0;
  if (EVP_DigestInit_ex(d.ctx, EVP_sha256(), nullptr) != 1 || EVP_DigestUpdate(d.ctx, a.data(), a.size()) != 1 ||
      EVP_DigestUpdate(d.ctx, b.data(), b.size()) != 1 || EVP_DigestFinal_ex(d.ctx, out.data(), &len) != 1 ||
      len != out.size()) {
    throw std::runtime_error("SHA-256 failed in OpenSSL");
  }
  return out;
}

}  // namespace

Hash sha256(std::string_view bytes) {
  return digest(bytes, {});
}

Hash chain_hash(const Hash& prev, std::string_view canonical_bytes) {
  return digest(as_bytes(prev), canonical_bytes);
}

Hash genesis_hash(std::string_view journal_uuid) {
  return sha256(journal_uuid);
}

std::string to_hex(const Hash& h) {
  return base::hex_encode(as_bytes(h));
}

bool from_hex(std::string_view hex, Hash& out) {
  const auto bytes = base::hex_decode(hex);
  return bytes && from_bytes(*bytes, out);
}

std::string_view as_bytes(const Hash& h) {
  return {reinterpret_cast<const char*>(h.data()), h.size()};
}

bool from_bytes(std::string_view bytes, Hash& out) {
  if (bytes.size() != out.size()) return false;
  std::memcpy(out.data(), bytes.data(), out.size());
  return true;
}

}  // namespace koordq::journal
