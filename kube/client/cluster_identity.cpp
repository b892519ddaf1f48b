#include "kube/client/cluster_identity.hpp"

#include <simdjson.h>

namespace koordq::kube {
namespace {

ClusterIdentity failed(std::string error, bool retryable) {
  ClusterIdentity identity;
  identity.error = std::move(error);
  identity.retryable = retryable;
  return identity;
}

}  // namespace

ClusterIdentity read_cluster_identity(HttpClient& client, Cancellation* cancellation) {
  const std::string what = std::string("GET ") + kClusterIdentityPath;
  Request request;
  request.target = kClusterIdentityPath;
  auto response = client.send(request, cancellation);
  if (!response.ok()) return failed(response.message(), true);
  if (response->status == 401 || response->status == 403) {
    return failed(what + ": HTTP " + std::to_string(response->status) +
                      ": koordq reads the kube-system Namespace to know which cluster its journal belongs to; grant "
                      "its ServiceAccount get on namespaces with resourceNames [kube-system] (ops/kubernetes "
                      "ClusterRole koordq)",
                  false);
  }
  if (!response->ok()) {
    const bool retryable = response->status >= 500 || response->status == 429;
    return failed(what + ": HTTP " + std::to_string(response->status), retryable);
  }
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  std::string_view uid;
  if (parser.parse(response->body).get(root) != simdjson::SUCCESS ||
      root["metadata"]["uid"].get(uid) != simdjson::SUCCESS || uid.empty()) {
    return failed(what + ": the answer has no metadata.uid", false);
  }
  ClusterIdentity identity;
  identity.uid = std::string(uid);
  return identity;
}

}  // namespace koordq::kube
