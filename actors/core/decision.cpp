// The names of the decision kinds, as logs, `replay` and `explain` print them.
#include "actors/core/decision.hpp"

#include <iterator>

namespace koordq::actors {

const char* decision_kind_name(DecisionKind kind) {
  static constexpr const char* kNames[] = {"admit",
                                           "reserve",
                                           "fail",
                                           "preempt",
                                           "reclaimObserved",
                                           "queueNotFound",
                                           "addQueueFail",
                                           "deactivated",
                                           "maxExecExceeded",
                                           "publishQueueItems",
                                           "admissionChecksReady",
                                           "admissionCheckFailed",
                                           "invalidRefreshInterval",
                                           "queueCreate",
                                           "queuePatch",
                                           "queueDelete",
                                           "queueUsageAnnotations",
                                           "phaseEvent",
                                           "admissionChecksUpdated",
                                           "specQueueRepair",
                                           "invalidQuantities"};
  const auto i = static_cast<size_t>(kind);
  return i < std::size(kNames) ? kNames[i] : "unknown";
}

}  // namespace koordq::actors
