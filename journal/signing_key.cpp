#include "journal/signing_key.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/base64.hpp"
#include "journal/hash_chain.hpp"

namespace koordq::journal {
namespace {

namespace fs = std::filesystem;

std::shared_ptr<void> own_pkey(EVP_PKEY* key) {
  return std::shared_ptr<void>(key, [](void* k) { EVP_PKEY_free(static_cast<EVP_PKEY*>(k)); });
}
EVP_PKEY* pkey_of(const std::shared_ptr<void>& key) {
  return static_cast<EVP_PKEY*>(key.get());
}

std::string key_id_of(EVP_PKEY* key) {
  unsigned char pub[32];
  size_t len = sizeof pub;
  if (EVP_PKEY_get_raw_public_key(key, pub, &len) != 1) return {};
  return to_hex(sha256(std::string_view(reinterpret_cast<const char*>(pub), len))).substr(0, 16);
}

Result<EVP_PKEY*> read_pem(const fs::path& file, bool private_key) {
  std::FILE* f = std::fopen(file.c_str(), "r");
  if (f == nullptr) {
    return make_error("cannot read key file " + file.string() + ": " + std::strerror(errno) + "; name the " +
                      (private_key ? "--private-key" : "--public-key") + " file that `koordq journal keygen` wrote");
  }
  EVP_PKEY* key =
      private_key ? PEM_read_PrivateKey(f, nullptr, nullptr, nullptr) : PEM_read_PUBKEY(f, nullptr, nullptr, nullptr);
  std::fclose(f);
  const std::string what = private_key ? "private" : "public";
  if (key == nullptr) {
    return make_error("key file " + file.string() + " holds no PEM " + what +
                      " key; generate a pair with `koordq journal keygen`");
  }
  if (EVP_PKEY_get_id(key) != EVP_PKEY_ED25519) {
    EVP_PKEY_free(key);
    return make_error("key file " + file.string() + " holds a " + what +
                      " key that is not Ed25519; generate a pair with `koordq journal keygen`");
  }
  return key;
}

Status write_pem(const fs::path& file, mode_t mode, EVP_PKEY* key, bool private_key) {
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
  if (fd < 0) {
    return make_error("cannot create " + file.string() + ": " + std::strerror(errno) +
                      (errno == EEXIST ? " (name a file that does not exist)" : ""));
  }
  ::fchmod(fd, mode);  // whatever the umask
  std::FILE* f = ::fdopen(fd, "w");
  if (f == nullptr) {
    ::close(fd);
    return make_error("cannot write " + file.string() + ": " + std::strerror(errno));
  }
  const int written =
      private_key ? PEM_write_PrivateKey(f, key, nullptr, nullptr, 0, nullptr, nullptr) : PEM_write_PUBKEY(f, key);
  const bool flushed = std::fflush(f) == 0 && ::fsync(::fileno(f)) == 0;
  std::fclose(f);
  if (written != 1 || !flushed) return make_error("cannot write " + file.string());
  return ok_status();
}

}  // namespace

Result<VerifyingKey> VerifyingKey::load(const fs::path& pem_file) {
  auto key = read_pem(pem_file, false);
  if (!key.ok()) return key.error();
  VerifyingKey out;
  out.key_ = own_pkey(*key);
  out.key_id_ = key_id_of(*key);
  return out;
}

bool VerifyingKey::verifies(std::string_view statement, const Signature& signature) const {
  if (!key_ || signature.key_id != key_id_) return false;
  const auto bytes = base::base64_decode(signature.base64);
  if (!bytes || bytes->size() != 64) return false;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestVerifyInit(ctx.get(), nullptr, nullptr, nullptr, pkey_of(key_)) != 1) return false;
  return EVP_DigestVerify(ctx.get(), reinterpret_cast<const unsigned char*>(bytes->data()), bytes->size(),
                          reinterpret_cast<const unsigned char*>(statement.data()), statement.size()) == 1;
}

Result<SigningKey> SigningKey::load(const fs::path& pem_file) {
  struct stat st {};
  if (::stat(pem_file.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
    return make_error("signing key file " + pem_file.string() +
                      " can be read by group or others; chmod 600 it (or generate a new pair)");
  }
  auto key = read_pem(pem_file, true);
  if (!key.ok()) return key.error();
  SigningKey out;
  out.key_ = own_pkey(*key);
  out.key_id_ = key_id_of(*key);
  out.verifying_.key_ = out.key_;
  out.verifying_.key_id_ = out.key_id_;
  return out;
}

Signature SigningKey::sign(std::string_view statement) const {
  unsigned char sig[64];
  size_t len = sizeof sig;
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, nullptr, nullptr, pkey_of(key_)) != 1 ||
      EVP_DigestSign(ctx.get(), sig, &len, reinterpret_cast<const unsigned char*>(statement.data()),
                     statement.size()) != 1) {
    throw std::runtime_error("OpenSSL cannot sign with an Ed25519 key");
  }
  return Signature{key_id_, base::base64_encode(std::string_view(reinterpret_cast<const char*>(sig), len))};
}

Status generate_signing_key_pair(const fs::path& private_pem, const fs::path& public_pem) {
  EVP_PKEY* generated = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (generated == nullptr) return make_error("OpenSSL cannot generate an Ed25519 key");
  auto key = own_pkey(generated);
  if (auto s = write_pem(private_pem, 0600, generated, true); !s.ok()) return s;
  if (auto s = write_pem(public_pem, 0644, generated, false); !s.ok()) {
    ::unlink(private_pem.c_str());
    return s;
  }
  return ok_status();
}

}  // namespace koordq::journal
