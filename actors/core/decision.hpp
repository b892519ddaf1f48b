// A decision of a decide round, as the decision logic produces it and the `round` record carries
// it (schema/record.capnp, Decision). Applying the round record applies these; the writers carry
// out their writes once the record is durable.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "actors/core/quota_tree.hpp"
#include "actors/core/usage_annotations.hpp"
#include "schema/queue.hpp"
#include "schema/queue_unit.hpp"

namespace koordq::actors {

enum class DecisionKind : uint16_t {
  kAdmit = 0,
  kReserve = 1,
  kFail = 2,
  kPreempt = 3,
  kReclaimObserved = 4,
  kQueueNotFound = 5,
  kAddQueueFail = 6,
  kDeactivated = 7,
  kMaxExecExceeded = 8,
  kPublishQueueItems = 9,
  kAdmissionChecksReady = 10,
  kAdmissionCheckFailed = 11,
  kInvalidRefreshInterval = 12,
  kQueueCreate = 13,
  kQueuePatch = 14,
  kQueueDelete = 15,
  kQueueUsageAnnotations = 16,
  kPhaseEvent = 17,              // §13.1: the event for an observed SchedSucceed / SchedFailed
  kAdmissionChecksUpdated = 18,  // §10: a Reserved unit's checks follow its Queue's, no verdict yet
  kSpecQueueRepair = 19,         // §7.3: an admitted unit's spec.queue patch again, the first was lost
  kInvalidQuantities = 20,       // §3.1: a unit whose quantities are not valid waits, reported once
};

struct UnitRef {
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string quota;
  std::string queue;

  bool operator==(const UnitRef&) const = default;
};

struct QueueRef {
  std::string name;

  bool operator==(const QueueRef&) const = default;
};

using Target = std::variant<UnitRef, QueueRef>;

// The status keys one merge-PATCH sets (behaviour.md §7.3); lists are complete.
struct StatusPatch {
  std::string resource_version;  // precondition
  std::optional<std::string> phase;
  std::optional<std::string> message;
  std::optional<int64_t> attempts;
  std::optional<int64_t> last_update_time;
  std::optional<int64_t> last_allocate_time;
  std::optional<std::vector<schema::Admission>> admissions;
  std::optional<std::vector<schema::AdmissionCheckState>> admission_checks;

  bool operator==(const StatusPatch&) const = default;
};

struct ObjectRef {
  std::string kind;
  std::string api_version;
  std::string namespace_;
  std::string name;
  std::string uid;

  bool operator==(const ObjectRef&) const = default;
};

struct KubeEvent {
  ObjectRef involved_object;
  bool warning = false;
  std::string reason;
  std::string message;

  bool operator==(const KubeEvent&) const = default;
};

// One key of a string-map merge-PATCH: set, or remove when value is std::nullopt.
using MapPatch = std::map<std::string, std::optional<std::string>>;

struct QueuePatch {
  std::optional<std::string> queue_policy;
  MapPatch labels;
  MapPatch annotations;

  bool operator==(const QueuePatch&) const = default;
};

struct QueueDelete {
  bool operator==(const QueueDelete&) const = default;
};

using QueueWrite = std::variant<schema::QueueItemDetails, UsageAnnotations, schema::Queue, QueuePatch, QueueDelete>;

struct Victim {
  UnitRef unit;
  int64_t replicas = 0;

  bool operator==(const Victim&) const = default;
};

struct Decision {
  Target target;
  DecisionKind kind = DecisionKind::kFail;
  std::string reason;
  std::optional<StatusPatch> status_patch;
  std::optional<std::string> spec_queue_patch;
  std::vector<KubeEvent> events;
  std::optional<QueueWrite> queue_write;
  std::vector<Victim> victims;
  std::vector<QuotaCheckStep> quota_check;

  bool operator==(const Decision&) const = default;
};

const char* decision_kind_name(DecisionKind kind);

}  // namespace koordq::actors
