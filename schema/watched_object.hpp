// One watched object of any of the three kinds, as the journal's `watch` record carries it.
#pragma once

#include <string>
#include <variant>

#include "schema/elastic_quota.hpp"
#include "schema/queue.hpp"
#include "schema/queue_unit.hpp"

namespace koordq::schema {

enum class ObjectKind { kQueueUnit, kQueue, kElasticQuota };

using WatchedObject = std::variant<QueueUnit, Queue, ElasticQuota>;

inline ObjectKind kind_of(const WatchedObject& o) {
  return static_cast<ObjectKind>(o.index());
}
const ObjectMeta& meta_of(const WatchedObject& o);

// "QueueUnit", "Queue", "ElasticQuota"
const char* kind_name(ObjectKind kind);
// "queueunits", "queues", "elasticquotas"
const char* resource_name(ObjectKind kind);

}  // namespace koordq::schema
