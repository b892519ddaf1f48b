// The journal's Ed25519 signing key (OpenSSL EVP): `koordq journal keygen` writes a pair of PEM
// files; serve signs HEAD, the retention cut, snapshot anchors and export trailers with the
// private key; an auditor checks them with the public key alone (design.md §5).
//
// Every signature covers a statement that names what it is about ("koordq HEAD", …) and the
// journal's UUID, so a signature cannot be moved to another kind of statement or journal.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::journal {

// A signature as it is stored beside what it signs: the key's id and the base64 signature.
struct Signature {
  std::string key_id;  // 16 hex digits of SHA-256 over the raw public key
  std::string base64;  // the 64 signature bytes
};

class VerifyingKey {
 public:
  // A PEM public key (SubjectPublicKeyInfo), as `journal keygen --public-key` writes it.
  static Result<VerifyingKey> load(const std::filesystem::path& pem_file);
  const std::string& key_id() const { return key_id_; }
  // Whether `signature` is this key's signature of `statement`.
  bool verifies(std::string_view statement, const Signature& signature) const;

 private:
  friend class SigningKey;
  std::shared_ptr<void> key_;  // EVP_PKEY
  std::string key_id_;
};

class SigningKey {
 public:
  // A PEM private key (PKCS#8); refused when the file can be read by group or others.
  static Result<SigningKey> load(const std::filesystem::path& pem_file);
  const std::string& key_id() const { return key_id_; }
  Signature sign(std::string_view statement) const;
  const VerifyingKey& verifying_key() const { return verifying_; }

 private:
  std::shared_ptr<void> key_;  // EVP_PKEY
  std::string key_id_;
  VerifyingKey verifying_;
};

// Writes a fresh key pair: the private key with mode 0600 (both files must not exist).
Status generate_signing_key_pair(const std::filesystem::path& private_pem, const std::filesystem::path& public_pem);

}  // namespace koordq::journal
