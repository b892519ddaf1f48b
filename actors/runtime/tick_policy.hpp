// When the clock appends a `tick` (design.md §3, Time): only once the earliest deadline has
// passed and nothing has been appended since it passed (any record advances "now" and its round
// sees the deadline), one tick for every due deadline, and at most one per --tick-min-interval.
// Pure: the clock actor and the simulator's discrete-event loop both ask it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

namespace koordq::actors::runtime {

struct TickPolicy {
  int64_t min_interval_ns = 10'000'000;

  // The time the next tick is due, given the state's earliest deadline, the time of the last
  // appended record and of the last tick. No deadline, or a record appended at or after it (its
  // round has seen the deadline; the next round re-arms) → no tick.
  std::optional<int64_t> next_tick(std::optional<int64_t> deadline, int64_t last_append,
                                   std::optional<int64_t> last_tick) const {
    if (!deadline || last_append >= *deadline) return std::nullopt;
    int64_t at = *deadline;
    if (last_tick) at = std::max(at, *last_tick + min_interval_ns);
    return at;
  }

  bool tick_due(int64_t now, std::optional<int64_t> deadline, int64_t last_append,
                std::optional<int64_t> last_tick) const {
    const auto at = next_tick(deadline, last_append, last_tick);
    return at && now >= *at;
  }
};

}  // namespace koordq::actors::runtime
