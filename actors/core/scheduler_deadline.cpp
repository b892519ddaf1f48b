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
  for (const auto& [name, q] : queues_) {
    if (q.settings.policy != QueuePolicy::kUnsupported) {
      // A candidate the next attempt could take: active, inside the window and, under Block,
      // not behind another unit's block. Units that cannot be tried set no deadline.
      std::optional<std::string> candidate;
      int64_t rank = 0;
      for (const auto& key : q.waiting) {
        if (q.settings.max_depth >= 0 && rank >= q.settings.max_depth) break;
        ++rank;
        const UnitState& u = units_.at(key.full_name);
        if (u.backoff_until && *u.backoff_until > now_) {
          consider(*u.backoff_until);
          continue;
        }
        const auto b = q.blocked.find(u.quota);
        if (q.settings.policy == QueuePolicy::kBlock && b != q.blocked.end() && b->second != key.full_name) continue;
        if (!candidate) candidate = key.full_name;
      }
      if (candidate && q.last_attempt) {
        consider(*q.last_attempt + config_.schedule_suspend_nanos);
        if (q.settings.policy == QueuePolicy::kBlock && *candidate == q.last_tried) {
          consider(*q.last_attempt + kBlockRetryWait);
        }
      }
      if (!q.blocked.empty()) consider(q.last_activity + kThreeMinutes);
    }
    if (q.settings.show_queue_items && q.next_publish) consider(*q.next_publish);
    if (q.usage_next > now_ && manages_queue(name) && usage_annotations(name) != usage_on_queue(q)) {
      consider(q.usage_next);
    }
  }
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
