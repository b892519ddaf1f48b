// The summaries of explain's entries (behaviour.md §24.2): what a record changed for one unit,
// read from the unit as the folded state had it before and after the record.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "actors/core/decision.hpp"
#include "actors/core/scheduler.hpp"
#include "schema/record.capnp.h"

namespace koordq::replay {

// One UID of the unit in the folded state; `present` is false when the state has no unit of that
// name or a unit with another UID.
struct UnitSeen {
  bool present = false;
  actors::Phase phase = actors::Phase::kEnqueued;  // effective (§5.1)
  schema::QueueUnit object;                        // as last observed
  bool waiting = false;
  bool holds = false;
  actors::OrderKey key;
  std::optional<int64_t> backoff_until;
  int64_t failures = 0;
};

UnitSeen unit_seen(const actors::Scheduler& state, const std::string& key, const std::string& uid);

// 1-based position among the waiting units of its queue (§6.2), std::nullopt when not waiting.
std::optional<int64_t> position_of(const actors::Scheduler& state, const UnitSeen& seen);

// An attempt of §7: admit, reserve or fail with the attempt counted.
bool is_attempt(const actors::Decision& d);

std::string watch_summary(wire::Watch::EventType event, bool synthesized, const UnitSeen& before, const UnitSeen& after,
                          int64_t now);
// `with_transition`: whether to tell the record's phase change (once per record).
std::string decision_summary(const actors::Decision& d, const UnitSeen& before, const UnitSeen& after, int64_t now,
                             bool with_transition);
// `decided`: the kind of the decision whose write this answers, when it was about this name.
std::string outcome_summary(const actors::Outcome& o, std::optional<actors::DecisionKind> decided,
                            const UnitSeen& before, const UnitSeen& after);

}  // namespace koordq::replay
