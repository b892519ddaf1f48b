#include "schema/watched_object.hpp"

#include <variant>

namespace koordq::schema {

const ObjectMeta& meta_of(const WatchedObject& o) {
  return std::visit([](const auto& object) -> const ObjectMeta& { return object.metadata; }, o);
}

const char* kind_name(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kQueueUnit:
      return "QueueUnit";
    case ObjectKind::kQueue:
      return "Queue";
    case ObjectKind::kElasticQuota:
      return "ElasticQuota";
  }
  return "Unknown";
}

const char* resource_name(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kQueueUnit:
      return "queueunits";
    case ObjectKind::kQueue:
      return "queues";
    case ObjectKind::kElasticQuota:
      return "elasticquotas";
  }
  return "unknown";
}

}  // namespace koordq::schema
