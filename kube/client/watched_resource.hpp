// The three resources koordq lists and watches (behaviour.md §1, §2.1), and their URL paths.
#pragma once

#include <string>

#include "schema/watched_object.hpp"

namespace koordq::kube {

struct WatchedResource {
  schema::ObjectKind kind = schema::ObjectKind::kQueueUnit;
  std::string group;
  std::string version;
  std::string resource;    // plural: "queueunits"
  std::string namespace_;  // empty: all namespaces

  // "/apis/scheduling.x-k8s.io/v1alpha1/queueunits", or ".../namespaces/NS/queues".
  std::string path() const;
  // "queueunits" or "queues in koord-queue", for messages.
  std::string describe() const;
};

// QueueUnits in all namespaces (scheduling.x-k8s.io/v1alpha1).
WatchedResource queue_units_resource();
// Queues in the queue namespace (scheduling.x-k8s.io/v1alpha1, `--queue-namespace`).
WatchedResource queues_resource(const std::string& queue_namespace);
// ElasticQuotas in all namespaces (scheduling.sigs.k8s.io/v1alpha1).
WatchedResource elastic_quotas_resource();

// Percent-encodes a query parameter value (RFC 3986 unreserved characters stay).
std::string query_escape(const std::string& value);

}  // namespace koordq::kube
