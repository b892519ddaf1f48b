// The identity of the cluster behind the API server: the uid of its kube-system Namespace, which
// lives as long as the cluster (behaviour.md §2.1). `serve` records it in the journal and refuses
// a journal of another cluster (journal/cluster_identity.hpp).
#pragma once

#include <string>

#include "kube/client/http_client.hpp"

namespace koordq::kube {

inline constexpr char kClusterIdentityPath[] = "/api/v1/namespaces/kube-system";

struct ClusterIdentity {
  std::string uid;    // set on success
  std::string error;  // set on failure: what failed, and for a refusal the RBAC rule that is missing
  // The server could not be reached or answered 5xx/429: asking again may succeed. A refusal
  // (401, 403) or an answer without a uid will not change by itself.
  bool retryable = false;
  bool ok() const { return error.empty(); }
};

ClusterIdentity read_cluster_identity(HttpClient& client, Cancellation* cancellation = nullptr);

}  // namespace koordq::kube
