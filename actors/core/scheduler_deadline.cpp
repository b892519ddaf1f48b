// Scheduler: the next instant at which a round could decide something new without any input
// (backoffs, the suspend time between attempts, Block retries and releases, publishing, usage
// annotations, metric series, the Queue-not-found grace, execution limits): the router's timer.
#include <algorithm>

#include "actors/core/policy_periods.hpp"
#include "actors/core/scheduler.hpp"
#include "base/time_units.hpp"

namespace koordq::actors {

std::optional<int64_t> Scheduler::next_deadline() const {
  std::optional<int64_t> best;
  auto consider = [&](int64_t t) {
    if (t > now_ && (!best || t < *best)) best = t;
  };
  // Each queue's part (backoffs, suspend and Block retry times, block expiry, publication, usage
  // annotations) is its recheck time in the round index (scheduler_wake.cpp).
  settle_rounds();
  if (!rechecks_.empty()) consider(rechecks_.begin()->first);
  for (const auto& [ns, since] : metrics_.namespace_empty_since) {
    const bool has_series = std::any_of(metrics_.coming.begin(), metrics_.coming.end(),
                                        [&ns = ns](const auto& entry) { return std::get<0>(entry.first) == ns; });
    if (has_series) consider(since + kFiveMinutes);
  }
  for (const auto& key : unmapped_pending_) consider(*units_.at(key).unmapped_since + kQueueNotFoundGrace);
  for (const auto& key : execution_limited_) {
    const UnitState& u = units_.at(key);
    consider(*u.running_since + int64_t{*u.object.spec.maximum_execution_time_seconds} * base::kSecond);
  }
  return best;
}

}  // namespace koordq::actors
