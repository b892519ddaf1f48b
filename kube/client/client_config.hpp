// Where the API server is and how to authenticate to it (behaviour.md §21 `--kubeconfig`):
// a kubeconfig file's current context (bearer token or token file, client certificate and key,
// CA data or file, insecure-skip-tls-verify, tls-server-name), or the in-cluster service account
// (/var/run/secrets/kubernetes.io/serviceaccount, KUBERNETES_SERVICE_HOST/PORT).
//
// Errors name the file, the field and the fix (`kubeconfig /root/.kube/config: users[0] "admin":
// client-key-data: not valid base64; …`). No message ever contains a token, a key or other file
// contents.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "kube/client/bearer_token.hpp"

namespace koordq::kube {

struct ClientConfig {
  bool tls = true;        // https (the usual) or http (e.g. `kubectl proxy`)
  std::string host;       // "127.0.0.1", "::1", "kubernetes.default.svc"
  std::string port;       // "6443"
  std::string base_path;  // a path prefix of the server URL without the trailing '/', usually empty
  std::string ca_pem;     // CA bundle to trust; empty: the system's trust store
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;  // name checked in the server certificate; empty: `host`
  std::string client_cert_pem;
  std::string client_key_pem;
  std::shared_ptr<BearerToken> token;  // null: no bearer token
  std::string default_namespace;       // the context's namespace (in-cluster: the pod's)
  std::string source;                  // for messages: `kubeconfig PATH (context NAME)` or `in-cluster service account`

  // "host:port" as the request metrics label it ("[::1]:6443" for IPv6).
  std::string host_port() const;
};

// A kubeconfig file, or several merged as client-go merges KUBECONFIG (the first file to set a
// value wins: current-context, and each named cluster, user and context). `context`: use this
// context instead of current-context when non-empty.
Result<ClientConfig> load_kubeconfig(const std::vector<std::filesystem::path>& files, const std::string& context = {});

struct InClusterEnvironment {
  std::filesystem::path service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";
  // Reads an environment variable; std::nullopt when unset.
  std::function<std::optional<std::string>(const char*)> getenv;
};
InClusterEnvironment process_environment();

// The service account's token (re-read on rotation), ca.crt and namespace, and
// KUBERNETES_SERVICE_HOST/KUBERNETES_SERVICE_PORT.
Result<ClientConfig> load_in_cluster_config(const InClusterEnvironment& env);

// behaviour.md §21: `kubeconfig_flag` when non-empty, else the files of env KUBECONFIG
// (colon-separated), else the in-cluster configuration.
Result<ClientConfig> resolve_client_config(const std::string& kubeconfig_flag, const InClusterEnvironment& env);

// "https://host:port/prefix" → tls/host/port/base_path of `config`.
Status parse_server_url(const std::string& url, ClientConfig& config);

}  // namespace koordq::kube
