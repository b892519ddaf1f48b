// What koordq derives from one QueueUnit object (behaviour.md §3.4, §4, §5): its quota, the
// effective phase, the per-replica amounts of its pod sets, and the predicates of §5.2.
// Pure functions of the object; no state, clock or I/O.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "schema/queue_unit.hpp"
#include "schema/resource_list.hpp"

namespace koordq::actors {

inline constexpr std::string_view kRootQuota = "koordinator-root-quota";
inline constexpr std::string_view kDefaultPodSet = "koord-queue/default-requirement";

enum class Phase {
  kEnqueued,  // also "" (unset)
  kReserved,
  kDequeued,
  kRunning,
  kSucceed,
  kFailed,
  kTimeoutBackoff,
  kSchedReady,
  kSchedSucceed,
  kSchedFailed,  // also any unknown value
};

// "" → kEnqueued; unknown values → kSchedFailed (§5.1).
Phase effective_phase(std::string_view phase);
bool is_known_phase(std::string_view phase);
// The name every surface shows for an effective phase ("Enqueued", …).
const char* phase_name(Phase phase);
bool is_terminal(Phase phase);

// §4: label quota.scheduling.koordinator.sh/name, else alibabacloud.com/quota-name, else "".
std::string quota_name_of(const schema::QueueUnit& unit);
// The same, without a copy: a reference into the unit's labels, or to an empty string.
const std::string& quota_label_of(const schema::QueueUnit& unit);

struct PodSetDemand {
  std::string name;
  int64_t requested = 0;  // replicas asked for
  schema::ResourceVector per_replica;
};

// The pod sets with their per-replica amounts (§3.4); the synthetic default set when empty.
std::vector<PodSetDemand> pod_set_demands(const schema::QueueUnit& unit);

int64_t admitted_replicas(const schema::QueueUnit& unit, std::string_view pod_set);
bool is_satisfied(const schema::QueueUnit& unit);
bool is_all_running(const schema::QueueUnit& unit);
bool holds_quota(const schema::QueueUnit& unit);
// §5.2 charge, in internal units.
schema::ResourceVector charge_of(const schema::QueueUnit& unit);
// §8.1 request vector of an attempt.
schema::ResourceVector request_of(const schema::QueueUnit& unit);
// Waiting, apart from being mapped (the caller knows the mapping).
bool may_wait(const schema::QueueUnit& unit);
// The same of the unit with `status` in place of its own (a status write in flight, or the last
// one that landed), without building that object.
bool is_all_running(const schema::QueueUnitStatus& status);
bool holds_quota(const schema::QueueUnitStatus& status);
schema::ResourceVector charge_of(const schema::QueueUnit& unit, const schema::QueueUnitStatus& status);
bool may_wait(const schema::QueueUnit& unit, const schema::QueueUnitStatus& status);
// The quantities of the spec that say what the unit asks for (spec.resource, spec.request, every
// pod set container's requests and limits) that do not parse, are negative or overflow, as one
// text naming each field and value (`spec.resource["cpu"] "abc" does not parse; …`); empty when
// every one is valid. Such a unit is never admitted (§3.1): a dropped or zero amount would fit
// any quota.
std::string invalid_quantities(const schema::QueueUnit& unit);

// Admissions carrying a reclaim request (reclaimState.replicas > 0).
bool reclaim_requested(const schema::QueueUnit& unit);

}  // namespace koordq::actors
