// The status writes of behaviour.md §5.3, §7.3, §7.5, §10, §11: building the complete merge-PATCH
// a decision carries, and folding a patch into a status.
#pragma once

#include <string>
#include <vector>

#include "actors/core/decision.hpp"
#include "actors/core/queue_settings.hpp"
#include "schema/queue.hpp"
#include "schema/queue_unit.hpp"

namespace koordq::actors {

inline constexpr char kMessageDequeued[] = "Dequeued because schedule successfully";
inline constexpr char kMessageReserved[] = "Reserved resources success, waiting admission checks to be ready";
inline constexpr char kMessageChecksReady[] = "all admission checks success";
inline constexpr char kMessageCheckFailed[] = "admission check failed";
inline constexpr char kMessageReclaim[] = "Waiting job extension to reclaim resources.";
inline constexpr char kMessageDeactivated[] = "Evicted because the queue unit is deactivated";
inline constexpr char kMessageMaxExec[] = "Evicted because the maximum execution time was exceeded";
inline constexpr char kMessageCheckRemoved[] = "AdmisssionCheck is removed from queue";

// The unit's status with the keys the patch sets replaced.
schema::QueueUnitStatus merged(const schema::QueueUnitStatus& status, const StatusPatch& patch);
// The same, moving the patch's message, admissions and admission checks out of it instead of
// copying them (a decision given away); its phase and scalar fields stay as they are.
schema::QueueUnitStatus merged_taking_lists(const schema::QueueUnitStatus& status, StatusPatch& patch);

// The checks of `queue` that apply to the unit's labels (§10).
std::vector<std::string> applicable_checks(const schema::Queue& queue, const schema::QueueUnit& unit);
bool selector_matches(const schema::LabelSelector& selector, const schema::StringMap& labels);

// The admission patch of §7.3 for `unit` (its effective status) admitted by `queue` at `now`.
StatusPatch admission_patch(const schema::QueueUnit& unit, const schema::Queue& queue, int64_t attempts, int64_t now);

// §7.5: message, attempts, lastUpdateTime.
StatusPatch message_patch(const schema::QueueUnit& unit, const std::string& message, int64_t now);

ObjectRef object_ref_of(const schema::QueueUnit& unit);
ObjectRef object_ref_of(const schema::Queue& queue);
// The object §12 events are recorded on: the job named by spec.consumerRef, else the unit.
ObjectRef consumer_ref_of(const schema::QueueUnit& unit);

}  // namespace koordq::actors
