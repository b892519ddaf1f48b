// The clock (design.md §3, Time): appends a `tick` through `emit` only when the state's earliest
// deadline has passed and nothing was appended since; pending timers are coalesced into one, so
// a burst of deadlines costs one tick, and ticks are at least TickPolicy::min_interval_ns apart.
// After every round the serve loop re-arms it with the new deadline (none: the clock sleeps),
// through the Clock handle of clock.hpp.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

#include <caf/all.hpp>

#include "actors/runtime/clock.hpp"
#include "actors/runtime/tick_policy.hpp"

namespace koordq::actors::runtime {

struct ClockState {
  TickPolicy policy;
  ClockHooks hooks;
  std::optional<int64_t> deadline;
  int64_t last_append = 0;
  std::optional<int64_t> last_tick;
  uint64_t generation = 0;  // a timer from an older arming is stale
  uint64_t ticks = 0;
  static inline const char* name = "koordq.clock";
};

// Messages: (arm_atom, bool has_deadline, int64_t deadline, int64_t last_append) after a round;
// (appended_atom, int64_t time) for every other appended record; (get_atom) → uint64_t ticks.
caf::behavior clock_actor(caf::stateful_actor<ClockState>* self, TickPolicy policy, ClockHooks hooks);

}  // namespace koordq::actors::runtime
