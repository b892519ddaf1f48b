#include "api/tls_material.hpp"

#include <fstream>
#include <sstream>
#include <utility>

#include <arpa/inet.h>
#include <boost/asio/ssl.hpp>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "base/log.hpp"

namespace koordq::api {
namespace {

namespace ssl = boost::asio::ssl;

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};
struct BioFree {
  void operator()(BIO* p) const { BIO_free(p); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;
using Cert = std::unique_ptr<X509, X509Free>;
using Bio = std::unique_ptr<BIO, BioFree>;

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long length = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<size_t>(length));
}

bool add_extension(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (ext == nullptr) return false;
  const bool added = X509_add_ext(cert, ext, -1) == 1;
  X509_EXTENSION_free(ext);
  return added;
}

bool is_ip_address(const std::string& host) {
  unsigned char address[16];
  return inet_pton(AF_INET, host.c_str(), address) == 1 || inet_pton(AF_INET6, host.c_str(), address) == 1;
}

Result<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::filesystem::file_time_type modified(const std::filesystem::path& path) {
  std::error_code ignored;
  return path.empty() ? std::filesystem::file_time_type{} : std::filesystem::last_write_time(path, ignored);
}

}  // namespace

Result<CertificatePair> generate_certificate(const CertificateRequest& request, const CertificatePair* issuer) {
  Pkey key(EVP_EC_gen("P-256"));
  if (!key) return make_error("cannot generate an ECDSA P-256 key");
  Cert cert(X509_new());
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f;
  BIGNUM* serial_bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(serial_bn, X509_get_serialNumber(cert.get()));
  BN_free(serial_bn);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), static_cast<long>(request.days) * 86400);
  X509_set_pubkey(cert.get(), key.get());
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                             reinterpret_cast<const unsigned char*>(request.common_name.c_str()), -1, -1, 0);

  Pkey issuer_key;
  Cert issuer_cert;
  if (issuer != nullptr) {
    Bio cert_bio(BIO_new_mem_buf(issuer->certificate_pem.data(), static_cast<int>(issuer->certificate_pem.size())));
    Bio key_bio(BIO_new_mem_buf(issuer->key_pem.data(), static_cast<int>(issuer->key_pem.size())));
    issuer_cert.reset(PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr));
    issuer_key.reset(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
    if (!issuer_cert || !issuer_key) return make_error("the issuing certificate or key does not parse");
    X509_set_issuer_name(cert.get(), X509_get_subject_name(issuer_cert.get()));
  } else {
    X509_set_issuer_name(cert.get(), name);
  }
  X509* signer = issuer_cert ? issuer_cert.get() : cert.get();
  bool ok = add_extension(cert.get(), signer, NID_subject_key_identifier, "hash") &&
            add_extension(cert.get(), signer, NID_authority_key_identifier, "keyid:always");
  if (request.ca) {
    ok = ok && add_extension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE") &&
         add_extension(cert.get(), signer, NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
  } else if (issuer == nullptr) {
    // A self-signed serving certificate is its own trust anchor (curl --cacert, kubectl's
    // certificate-authority), which some verifiers accept only from a CA certificate.
    ok = ok && add_extension(cert.get(), signer, NID_basic_constraints, "critical,CA:TRUE") &&
         add_extension(cert.get(), signer, NID_key_usage, "critical,digitalSignature,keyEncipherment,keyCertSign") &&
         add_extension(cert.get(), signer, NID_ext_key_usage, request.client ? "clientAuth" : "serverAuth");
  } else {
    ok = ok && add_extension(cert.get(), signer, NID_basic_constraints, "critical,CA:FALSE") &&
         add_extension(cert.get(), signer, NID_key_usage, "critical,digitalSignature,keyEncipherment") &&
         add_extension(cert.get(), signer, NID_ext_key_usage, request.client ? "clientAuth" : "serverAuth");
  }
  if (!request.hosts.empty()) {
    std::string san;
    for (const std::string& host : request.hosts) {
      san += (san.empty() ? "" : ",") + std::string(is_ip_address(host) ? "IP:" : "DNS:") + host;
    }
    ok = ok && add_extension(cert.get(), signer, NID_subject_alt_name, san);
  }
  if (!ok) return make_error("cannot add the certificate's extensions");
  if (X509_sign(cert.get(), issuer_key ? issuer_key.get() : key.get(), EVP_sha256()) == 0) {
    return make_error("cannot sign the certificate");
  }
  Bio cert_out(BIO_new(BIO_s_mem()));
  Bio key_out(BIO_new(BIO_s_mem()));
  PEM_write_bio_X509(cert_out.get(), cert.get());
  PEM_write_bio_PrivateKey(key_out.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  return CertificatePair{bio_text(cert_out.get()), bio_text(key_out.get())};
}

Result<std::shared_ptr<TlsMaterial>> TlsMaterial::load(Files files, std::optional<CertificatePair> generated) {
  std::shared_ptr<TlsMaterial> material(new TlsMaterial());
  material->files_ = std::move(files);
  material->client_auth_ = std::make_shared<ClientAuthConfig>();
  if (generated) material->serving_ = std::move(*generated);
  if (!material->files_.certificate.empty()) {
    auto cert = read_file(material->files_.certificate);
    if (!cert.ok()) return make_error("--visibility-tls-cert-file: " + cert.message());
    auto key = read_file(material->files_.key);
    if (!key.ok()) return make_error("--visibility-tls-key-file: " + key.message());
    material->serving_ = {*cert, *key};
    material->cert_time_ = modified(material->files_.certificate);
    material->key_time_ = modified(material->files_.key);
  }
  if (!material->files_.client_ca.empty()) {
    auto ca = read_file(material->files_.client_ca);
    if (!ca.ok()) return make_error("--visibility-client-ca-file: " + ca.message());
    auto config = std::make_shared<ClientAuthConfig>();
    config->ca_pem = *ca;
    material->client_auth_ = std::move(config);
    material->ca_time_ = modified(material->files_.client_ca);
  }
  std::lock_guard update(material->update_mu_);
  if (Status built = material->rebuild(); !built.ok()) return built.error();
  return material;
}

Status TlsMaterial::rebuild() {
  try {
    auto context = std::make_shared<ssl::context>(ssl::context::tls_server);
    context->set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                         ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
    CertificatePair serving;
    {
      std::lock_guard lock(mu_);
      serving = serving_;
    }
    context->use_certificate_chain(boost::asio::buffer(serving.certificate_pem));
    context->use_private_key(boost::asio::buffer(serving.key_pem), ssl::context::pem);
    std::shared_ptr<const ClientAuthConfig> auth;
    {
      std::lock_guard lock(mu_);
      auth = client_auth_;
    }
    if (auth && !auth->ca_pem.empty()) {
      context->add_certificate_authority(boost::asio::buffer(auth->ca_pem));
      // Ask for a client certificate but never fail the handshake: /healthz needs none, and the
      // API answers an unverified one with a 401 Status.
      context->set_verify_mode(ssl::verify_peer);
      context->set_verify_callback([](bool, ssl::verify_context&) { return true; });
    }
    std::lock_guard lock(mu_);
    context_ = std::move(context);
  } catch (const std::exception& e) {
    return make_error(std::string("the TLS material does not load: ") + e.what());
  }
  return ok_status();
}

std::shared_ptr<boost::asio::ssl::context> TlsMaterial::context() const {
  std::lock_guard lock(mu_);
  return context_;
}

std::shared_ptr<const ClientAuthConfig> TlsMaterial::client_auth() const {
  std::lock_guard lock(mu_);
  return client_auth_;
}

std::string TlsMaterial::serving_certificate() const {
  std::lock_guard lock(mu_);
  return serving_.certificate_pem;
}

Status TlsMaterial::set_generated_serving(CertificatePair pair) {
  std::lock_guard update(update_mu_);
  CertificatePair previous;
  {
    std::lock_guard lock(mu_);
    previous = std::exchange(serving_, std::move(pair));
  }
  if (Status built = rebuild(); !built.ok()) {
    std::lock_guard lock(mu_);
    serving_ = std::move(previous);
    return built;
  }
  return ok_status();
}

Status TlsMaterial::set_client_auth(ClientAuthConfig config) {
  std::lock_guard update(update_mu_);
  std::shared_ptr<const ClientAuthConfig> previous;
  {
    std::lock_guard lock(mu_);
    previous = client_auth_;
    client_auth_ = std::make_shared<ClientAuthConfig>(std::move(config));
  }
  if (Status built = rebuild(); !built.ok()) {
    std::lock_guard lock(mu_);
    client_auth_ = std::move(previous);
    return built;
  }
  return ok_status();
}

bool TlsMaterial::reload_if_changed() {
  std::lock_guard update(update_mu_);
  const auto cert_time = modified(files_.certificate);
  const auto key_time = modified(files_.key);
  const auto ca_time = modified(files_.client_ca);
  if (cert_time == cert_time_ && key_time == key_time_ && ca_time == ca_time_) return false;
  const bool serving_changed = cert_time != cert_time_ || key_time != key_time_;
  const bool ca_changed = ca_time != ca_time_;
  // Taken at once: material that fails to load is reported once per change, not every check.
  cert_time_ = cert_time;
  key_time_ = key_time;
  ca_time_ = ca_time;
  CertificatePair previous_serving;
  {
    std::lock_guard lock(mu_);
    previous_serving = serving_;
  }
  std::shared_ptr<const ClientAuthConfig> previous_auth = client_auth();
  if (!files_.certificate.empty() && serving_changed) {
    auto cert = read_file(files_.certificate);
    auto key = read_file(files_.key);
    if (!cert.ok() || !key.ok()) {
      KQ_LOG_ERROR("visibility serving certificate not reloaded: {}", !cert.ok() ? cert.message() : key.message());
      return false;
    }
    std::lock_guard lock(mu_);
    serving_ = {*cert, *key};
  }
  if (!files_.client_ca.empty() && ca_changed) {
    auto ca = read_file(files_.client_ca);
    if (!ca.ok()) {
      KQ_LOG_ERROR("visibility client CA not reloaded: {}", ca.message());
      return false;
    }
    auto config = std::make_shared<ClientAuthConfig>(*previous_auth);
    config->ca_pem = *ca;
    std::lock_guard lock(mu_);
    client_auth_ = std::move(config);
  }
  if (Status built = rebuild(); !built.ok()) {
    KQ_LOG_ERROR("visibility TLS material not reloaded, the previous stays in use: {}", built.message());
    std::lock_guard lock(mu_);
    serving_ = previous_serving;
    client_auth_ = std::move(previous_auth);
    return false;
  }
  KQ_LOG_INFO("visibility TLS material reloaded");
  return true;
}

}  // namespace koordq::api
