// TLS material of the visibility server (behaviour.md §16.1): the serving certificate and key
// (files, or a self-signed pair for localhost and 127.0.0.1 generated at start) and the client
// CA of front-proxy authentication with its allowed names and header names (a file, or the
// cluster's extension-apiserver-authentication ConfigMap). Files are re-read when they change;
// material that fails to load is logged and the previous material stays in use. New connections
// take the current context; open ones keep theirs.
#pragma once

#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/ssl/context.hpp>

#include "base/result.hpp"

namespace koordq::api {

struct CertificatePair {
  std::string certificate_pem;
  std::string key_pem;
};

// An ECDSA P-256 certificate for `hosts` (DNS names or IP addresses) valid for `days`: self-signed,
// or signed by `issuer` when given. `ca` makes it a CA certificate; `client` gives it the client
// authentication key usage instead of the server one.
struct CertificateRequest {
  std::string common_name;
  std::vector<std::string> hosts;
  int days = 365;
  bool ca = false;
  bool client = false;
};
Result<CertificatePair> generate_certificate(const CertificateRequest& request,
                                             const CertificatePair* issuer = nullptr);

// Who may call: the request-header CA, the CNs it allows (empty: any) and the header names.
struct ClientAuthConfig {
  std::string ca_pem;  // empty: no CA available, every request under /apis is refused
  std::vector<std::string> allowed_names;
  std::vector<std::string> user_headers{"X-Remote-User"};
  std::vector<std::string> group_headers{"X-Remote-Group"};
  std::vector<std::string> extra_header_prefixes{"X-Remote-Extra-"};
  // Client-certificate authentication instead of the request headers, as a --client-ca-file of
  // kube-apiserver: the CN is the user. Only --simulate's own client CA is used so.
  bool user_from_certificate = false;
};

class TlsMaterial {
 public:
  // Files are read now and re-read by reload_if_changed; an empty cert file means the given
  // in-memory pair (the generated self-signed one).
  struct Files {
    std::filesystem::path certificate;
    std::filesystem::path key;
    std::filesystem::path client_ca;  // empty: the client auth is set with set_client_auth
  };
  static Result<std::shared_ptr<TlsMaterial>> load(Files files, std::optional<CertificatePair> generated);

  std::shared_ptr<boost::asio::ssl::context> context() const;
  std::shared_ptr<const ClientAuthConfig> client_auth() const;
  // From the cluster's ConfigMap (or a test): replaces the client CA, names and headers.
  Status set_client_auth(ClientAuthConfig config);
  // Re-reads the files whose modification time changed; true when the material changed.
  bool reload_if_changed();
  // The serving certificate (chain) in use, PEM: what the APIService's caBundle carries.
  std::string serving_certificate() const;
  // Serves `pair` from now on (a generated certificate made again for other hosts); an error
  // keeps the previous one.
  Status set_generated_serving(CertificatePair pair);

 private:
  TlsMaterial() = default;
  // Builds the context from serving_ and client_auth_; under update_mu_.
  Status rebuild();

  // Serialises every change (the file watcher, the ConfigMap watch, a new generated pair): the
  // serving pair, the file times and the rebuild are touched only under it.
  mutable std::mutex update_mu_;
  Files files_;
  CertificatePair serving_;  // written under update_mu_ and mu_, read under either
  std::filesystem::file_time_type cert_time_{}, key_time_{}, ca_time_{};
  mutable std::mutex mu_;
  std::shared_ptr<boost::asio::ssl::context> context_;
  std::shared_ptr<const ClientAuthConfig> client_auth_;
};

}  // namespace koordq::api
