// The round index (actors/core/scheduler_wake.cpp) against a walk over every queue: a round that
// visits only the awake queues decides exactly what a round over every queue decides, a queue
// the index lets sleep decides nothing, and the next deadline is the one a walk over every queue
// finds. Each returns the violations it found, empty when the invariant holds.
#pragma once

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "actors/core/policy_periods.hpp"
#include "actors/core/scheduler.hpp"
#include "base/time_units.hpp"

namespace koordq::testing {

// The next deadline as a walk over every queue and unit finds it (the definition before the
// round index kept it).
inline std::optional<int64_t> next_deadline_by_walk(const actors::Scheduler& s) {
  using actors::QueuePolicy;
  std::optional<int64_t> best;
  const int64_t now = s.now();
  auto consider = [&](int64_t t) {
    if (t > now && (!best || t < *best)) best = t;
  };
  for (const auto& [name, q] : s.queues()) {
    if (q.settings.policy != QueuePolicy::kUnsupported) {
      std::optional<std::string> candidate;
      int64_t rank = 0;
      for (const auto& key : q.waiting) {
        if (q.settings.max_depth >= 0 && rank >= q.settings.max_depth) break;
        ++rank;
        const actors::UnitState& u = s.units().at(key.full_name);
        if (u.backoff_until && *u.backoff_until > now) {
          consider(*u.backoff_until);
          continue;
        }
        const auto b = q.blocked.find(u.quota);
        if (q.settings.policy == QueuePolicy::kBlock && b != q.blocked.end() && b->second != key.full_name) continue;
        if (!candidate) candidate = key.full_name;
      }
      if (candidate && q.last_attempt) {
        consider(*q.last_attempt + s.config().schedule_suspend_nanos);
        if (q.settings.policy == QueuePolicy::kBlock && *candidate == q.last_tried) {
          consider(*q.last_attempt + actors::kBlockRetryWait);
        }
      }
      if (!q.blocked.empty()) consider(q.last_activity + actors::kThreeMinutes);
    }
    if (q.settings.show_queue_items && q.next_publish) consider(*q.next_publish);
    if (q.usage_next > now && s.manages_queue(name) && s.usage_annotations(name) != actors::usage_on_queue(q)) {
      consider(q.usage_next);
    }
  }
  const auto& metrics = s.metrics();
  for (const auto& [ns, since] : metrics.namespace_empty_since) {
    const bool has_series = std::any_of(metrics.coming.begin(), metrics.coming.end(),
                                        [&ns = ns](const auto& entry) { return std::get<0>(entry.first) == ns; });
    if (has_series) consider(since + actors::kFiveMinutes);
  }
  for (const auto& key : s.unmapped_pending())
    consider(*s.units().at(key).unmapped_since + actors::kQueueNotFoundGrace);
  for (const auto& key : s.execution_limited()) {
    const actors::UnitState& u = s.units().at(key);
    consider(*u.running_since + int64_t{*u.object.spec.maximum_execution_time_seconds} * base::kSecond);
  }
  return best;
}

// A round over every queue: the trees in name order, each tree's queues in name order, then the
// unmapped units, with the §2.5 pass over every quota however recently it found nothing.
inline std::vector<actors::Decision> decide_every_queue(const actors::Scheduler& s) {
  std::map<std::string, std::vector<std::string>> trees;
  for (const auto& [name, q] : s.queues()) trees[s.quotas().tree_of(name)].push_back(name);
  std::vector<actors::Decision> out;
  for (const auto& [tree, queues] : trees) {
    actors::TreeRound round;
    for (const auto& name : queues) s.decide_queue(name, round, out);
  }
  const actors::Scheduler fresh = s;  // a copy passes over every quota again (§2.5)
  auto unmapped = fresh.decide_unmapped();
  out.insert(out.end(), std::make_move_iterator(unmapped.begin()), std::make_move_iterator(unmapped.end()));
  return out;
}

inline std::vector<std::string> round_index_violations(const actors::Scheduler& s) {
  std::vector<std::string> out;
  const auto awake = s.awake_queues();  // a copy: the calls below bring the index up to date again
  for (const auto& [name, q] : s.queues()) {
    if (awake.count(name)) continue;
    actors::TreeRound round;
    std::vector<actors::Decision> decided;
    s.decide_queue(name, round, decided);
    if (!decided.empty()) {
      out.push_back("queue " + name + " is asleep in the round index but a visit decides " +
                    actors::decision_kind_name(decided.front().kind) + ": " + decided.front().reason);
    }
  }
  if (s.decide() != decide_every_queue(s)) out.push_back("the round differs from a round over every queue");
  const auto walked = next_deadline_by_walk(s);
  if (s.next_deadline() != walked) {
    out.push_back("next deadline " + (s.next_deadline() ? std::to_string(*s.next_deadline()) : "none") +
                  ", a walk over every queue finds " + (walked ? std::to_string(*walked) : "none"));
  }
  const actors::Scheduler fresh = s;  // a copy works its index out from scratch
  if (fresh.awake_queues() != s.awake_queues()) out.push_back("the awake queues differ from a fresh index's");
  return out;
}

}  // namespace koordq::testing
