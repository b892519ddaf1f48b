// Invariants of a decision state, each recomputed independently from the units the state holds
// (using the definitions of behaviour.md §5.2 in unit_facts.hpp, never the state's own caches).
// Each returns the violations it found, empty when the invariant holds.
#pragma once

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/core/unit_facts.hpp"

namespace koordq::testing {

inline schema::QueueUnit effective_unit(const actors::UnitState& u) {
  schema::QueueUnit eff = u.object;
  eff.status = u.status();
  return eff;
}

inline std::string render(const schema::ResourceVector& v) {
  std::string out = "{";
  for (const auto& [r, n] : v) out += (out.size() > 1 ? "," : "") + r + ":" + std::to_string(n);
  return out + "}";
}

// ⌊max × rate_ppm / 10⁶⌋, saturating (§8.2).
inline int64_t quota_limit(int64_t max, int64_t rate_ppm) {
  const __int128 v = static_cast<__int128>(max) * rate_ppm / 1'000'000;
  return v > std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(v);
}

// a) Every unit's holds/charge follow its effective object, no amount is negative, and per known
// quota Used, SelfUsed and Count are the sums over the units holding quota at or below it.
inline std::vector<std::string> accounting_violations(const actors::Scheduler& s) {
  std::vector<std::string> out;
  std::map<std::string, schema::ResourceVector> used, self;
  std::map<std::string, int64_t> count;
  for (const auto& [key, u] : s.units()) {
    const schema::QueueUnit eff = effective_unit(u);
    bool holds = actors::holds_quota(eff);
    schema::ResourceVector charge = holds ? actors::charge_of(eff) : schema::ResourceVector{};
    // While a decided write is unanswered, the unit is charged the larger of what the write sets
    // and what the server last confirmed: reservations count at once, releases once they land.
    if (u.pending_status && u.pending_written_rv.empty()) {
      schema::QueueUnit confirmed = u.object;
      if (u.landed_status) confirmed.status = *u.landed_status;
      if (actors::holds_quota(confirmed)) {
        const schema::ResourceVector held = actors::charge_of(confirmed);
        if (!holds) {
          holds = true;
          charge = held;
        } else {
          for (const auto& [r, v] : held) charge[r] = std::max(charge[r], v);
        }
      }
    }
    if (u.holds != holds) {
      out.push_back("unit " + key + ": holds " + std::to_string(u.holds) + ", expected " + std::to_string(holds));
    }
    if (u.charge != charge) {
      out.push_back("unit " + key + ": charge " + render(u.charge) + ", expected " + render(charge));
    }
    if (!holds) continue;
    const auto path = s.quotas().path_of(actors::quota_name_of(eff));
    for (size_t i = 0; i < path.size(); ++i) {
      schema::add_to(used[path[i]], charge);
      ++count[path[i]];
      if (i == 0) schema::add_to(self[path[i]], charge);
    }
  }
  for (const auto& name : s.quotas().names()) {
    const actors::QuotaUsage usage = s.quotas().usage(name);
    for (const auto* v : {&usage.used, &usage.self_used, &usage.children_used}) {
      for (const auto& [r, n] : *v) {
        if (n < 0) out.push_back("quota " + name + ": negative " + r + " " + std::to_string(n));
      }
    }
    if (usage.used != used[name]) {
      out.push_back("quota " + name + ": Used " + render(usage.used) + ", units hold " + render(used[name]));
    }
    if (usage.self_used != self[name]) {
      out.push_back("quota " + name + ": SelfUsed " + render(usage.self_used) + ", units hold " + render(self[name]));
    }
    if (usage.count != count[name]) {
      out.push_back("quota " + name + ": Count " + std::to_string(usage.count) + ", units holding " +
                    std::to_string(count[name]));
    }
  }
  return out;
}

// b) For every known quota outside `exempt` and every resource in its max: Used ≤ ⌊max × rate⌋.
// The resources of quota `name` whose Used is over max × the oversell rate, as messages.
inline std::vector<std::string> quota_over_limit(const actors::Scheduler& s, const std::string& name) {
  std::vector<std::string> out;
  const auto* quota = s.quotas().find(name);
  if (quota == nullptr) return out;
  const auto used = s.quotas().usage(name).used;
  for (const auto& [r, max] : quota->max) {
    const auto it = used.find(r);
    const int64_t limit = quota_limit(max, s.config().oversell_rate_ppm);
    if (it != used.end() && it->second > limit) {
      out.push_back("quota " + name + ": Used " + r + " " + std::to_string(it->second) + " over its limit " +
                    std::to_string(limit));
    }
  }
  return out;
}

inline std::vector<std::string> over_admission_violations(const actors::Scheduler& s,
                                                          const std::set<std::string>& exempt) {
  std::vector<std::string> out;
  for (const auto& name : s.quotas().names()) {
    if (exempt.count(name)) continue;
    for (auto& v : quota_over_limit(s, name)) out.push_back(std::move(v));
  }
  return out;
}

// c) OrderKey is a strict total order over the units, and each unit's key follows its object.
inline std::vector<std::string> order_violations(const actors::Scheduler& s) {
  std::vector<std::string> out;
  std::vector<actors::OrderKey> keys;
  for (const auto& [key, u] : s.units()) {
    const actors::OrderKey expected{u.object.spec.priority.value_or(0),
                                    u.object.metadata.creation_timestamp.value_or(0), key};
    if (!(u.key == expected)) out.push_back("unit " + key + ": order key does not follow the object");
    if (u.key < u.key) out.push_back("unit " + key + ": key sorts before itself");
    keys.push_back(u.key);
  }
  std::sort(keys.begin(), keys.end());
  for (size_t i = 0; i < keys.size(); ++i) {
    for (size_t j = i + 1; j < keys.size(); ++j) {
      if (!(keys[i] < keys[j]) || keys[j] < keys[i]) {
        out.push_back(keys[i].full_name + " and " + keys[j].full_name + " are not strictly ordered");
      }
    }
  }
  return out;
}

// Each queue's waiting set is exactly the keys of its waiting units, and its members the units
// mapped to it; no unit waits without a queue.
inline std::vector<std::string> queue_membership_violations(const actors::Scheduler& s) {
  std::vector<std::string> out;
  std::map<std::string, std::set<actors::OrderKey>> waiting;
  std::map<std::string, std::set<std::string>> members;
  for (const auto& [key, u] : s.units()) {
    if (!s.queues().count(u.quota)) {
      if (u.waiting) out.push_back("unit " + key + " waits without a queue");
      continue;
    }
    members[u.quota].insert(key);
    if (u.waiting) waiting[u.quota].insert(u.key);
  }
  for (const auto& [name, q] : s.queues()) {
    if (q.waiting != waiting[name]) out.push_back("queue " + name + ": waiting set differs from its waiting units");
    if (q.members != members[name]) out.push_back("queue " + name + ": members differ from the units mapped to it");
  }
  return out;
}

// The derived indexes follow the state they index: each queue's housekeeping set is exactly its
// members with a deactivation, maximum-execution-time, phase-event, admission-check or spec.queue
// matter pending, its not-waiting set its members that do not wait, and its backoff set its members
// with a backoff time; the queue timers hold, per queue,
// the earliest of its cursor reset (3 minutes after the last reset), its queue-items publication
// (once the Queue shows a list) and its block expiry (3 minutes after the last activity), for the
// queues with one; the unit indexes hold the units with a pending queue-not-found report and the
// running units with an unreported maximum execution time; each unit's indexed_in bits name the
// sets of its queue that hold it.
inline std::vector<std::string> derived_index_violations(const actors::Scheduler& s) {
  constexpr int64_t kThreeMinutes = 180'000'000'000;
  std::vector<std::string> out;
  std::set<std::pair<int64_t, std::string>> timers;
  for (const auto& [name, q] : s.queues()) {
    std::set<std::string> housekeeping, not_waiting, backoff;
    for (const auto& key : q.members) {
      const actors::UnitState& u = s.units().at(key);
      if (!u.waiting) not_waiting.insert(key);
      if (u.backoff_until) backoff.insert(key);
      const bool max_exec = u.object.spec.maximum_execution_time_seconds.value_or(0) > 0 &&
                            u.running_since.has_value() && !u.max_exec_reported;
      const bool checks = u.phase == actors::Phase::kReserved && !u.pending_status.has_value();
      const actors::Phase seen = actors::effective_phase(u.object.status.phase);
      const bool spec_queue =
          (seen == actors::Phase::kReserved || seen == actors::Phase::kDequeued || seen == actors::Phase::kRunning) &&
          !u.object.status.admissions.empty() && u.object.spec.queue != name && u.spec_queue_sent != name;
      if (u.deactivation_due || max_exec || u.phase_event_due.has_value() || checks || spec_queue) {
        housekeeping.insert(key);
      }
    }
    if (q.housekeeping != housekeeping) out.push_back("queue " + name + ": housekeeping set differs from its members'");
    if (q.not_waiting != not_waiting) out.push_back("queue " + name + ": not-waiting set differs from its members'");
    if (q.backoff != backoff) out.push_back("queue " + name + ": backoff set differs from its members'");
    std::vector<int64_t> due;
    if (q.cursor) due.push_back(q.last_reset + kThreeMinutes);
    const bool shown = q.last_published || q.object.status.queue_item_details;
    if (q.settings.show_queue_items && q.next_publish && shown) due.push_back(*q.next_publish);
    if (!q.blocked.empty()) due.push_back(q.last_activity + kThreeMinutes);
    std::optional<int64_t> expected;
    if (!due.empty()) expected = *std::min_element(due.begin(), due.end());
    if (q.timer != expected) out.push_back("queue " + name + ": timer does not follow its state");
    if (expected) timers.emplace(*expected, name);
  }
  if (s.queue_timers() != timers) out.push_back("the queue timer index differs from the queues' timers");
  std::set<std::string> unmapped, limited;
  for (const auto& [key, u] : s.units()) {
    if (u.unmapped_since && !u.queue_not_found_reported && !u.quota.empty()) unmapped.insert(key);
    if (u.object.spec.maximum_execution_time_seconds.value_or(0) > 0 && u.running_since && !u.max_exec_reported) {
      limited.insert(key);
    }
  }
  // Each unit's indexed_in bits say which of its queue's sets hold it, and its queue pointer is
  // this scheduler's entry of the queue its quota names.
  for (const auto& [key, u] : s.units()) {
    uint8_t in = 0;
    const auto named = u.quota.empty() ? s.queues().end() : s.queues().find(u.quota);
    const actors::QueueState* expected_queue = named == s.queues().end() ? nullptr : &named->second;
    if (u.queue != expected_queue) out.push_back("unit " + key + ": its queue pointer is not its queue's entry");
    if (const auto q = s.queues().find(u.quota); !u.quota.empty() && q != s.queues().end()) {
      if (q->second.members.count(key)) in |= actors::kInMembers;
      if (q->second.housekeeping.count(key)) in |= actors::kInHousekeeping;
      if (q->second.not_waiting.count(key)) in |= actors::kInNotWaiting;
      if (q->second.backoff.count(key)) in |= actors::kInBackoff;
    }
    if (u.indexed_in != in) {
      out.push_back("unit " + key + ": indexed_in " + std::to_string(u.indexed_in) + ", its queue's sets say " +
                    std::to_string(in));
    }
  }
  if (s.unmapped_pending() != unmapped) out.push_back("the pending queue-not-found index differs from the units");
  if (s.execution_limited() != limited) out.push_back("the execution-limited index differs from the units");
  return out;
}

}  // namespace koordq::testing
