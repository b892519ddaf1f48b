// Scheduler: one unit's derived state after its object or pending status changed (refresh_unit):
// phase, charge, queue membership, blocks and releases; and the indexes a round reads.
#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "actors/core/scheduler.hpp"

namespace koordq::actors {
namespace {

bool decreased(const schema::ResourceVector& before, const schema::ResourceVector& after) {
  for (const auto& [r, v] : before) {
    const auto it = after.find(r);
    if (it == after.end() || it->second < v) return true;
  }
  return false;
}

}  // namespace

// What refresh_unit changed, as it was before: the parts after the first read it.
struct Scheduler::UnitChange {
  const std::string& old_quota;
  QueueState* old_q;
  QueueState* new_q;
  bool quota_changed;
  bool old_holds;
  const schema::ResourceVector& old_charge;
  bool old_waiting;
  Phase old_phase;
  bool old_assumed;
  const OrderKey& old_key;
  bool all_running;  // in the effective status
};

namespace {

// What refresh_unit derives from a unit's object under one status.
struct UnitFacts {
  const std::string* quota = nullptr;  // in the object's labels (quota_label_of)
  Phase phase = Phase::kEnqueued;
  bool holds = false;
  schema::ResourceVector charge;  // empty unless holds
  bool may_wait = false;
  int32_t priority = 0;
  int64_t creation = 0;
  bool has_admissions = false;
  bool all_running = false;
};

// The facts of `unit` with `status` standing in for its own.
UnitFacts facts_of(const schema::QueueUnit& unit, const schema::QueueUnitStatus& status) {
  UnitFacts f;
  f.quota = &quota_label_of(unit);
  f.phase = effective_phase(status.phase);
  f.holds = holds_quota(status);
  if (f.holds) f.charge = charge_of(unit, status);
  f.may_wait = may_wait(unit, status);
  f.priority = unit.spec.priority.value_or(0);
  f.creation = unit.metadata.creation_timestamp.value_or(0);
  f.has_admissions = !status.admissions.empty();
  f.all_running = is_all_running(status);
  return f;
}

}  // namespace

void Scheduler::refresh_unit(const std::string& key, bool spec_changed) {
  refresh_unit(units_.at(key), key, spec_changed);
}

void Scheduler::refresh_unit(UnitState& u, const std::string& key, bool spec_changed) {
  // The effective object is the observed one with the pending status, if any, in place of its own.
  const bool capacity_changed = u.capacity_changed_since_attempt();  // before it moves
  UnitFacts effective = facts_of(u.object, u.pending_status ? *u.pending_status : u.object.status);

  // The old values move out (no copies of the charge map and the strings per refresh); the
  // quota is copied only when it changes.
  std::string replaced_quota;
  const bool quota_changed = u.quota != *effective.quota;
  if (quota_changed) replaced_quota = std::exchange(u.quota, *effective.quota);
  const std::string& old_quota = quota_changed ? replaced_quota : u.quota;
  const bool old_holds = u.holds;
  const schema::ResourceVector old_charge = std::exchange(u.charge, std::move(effective.charge));
  const bool old_waiting = u.waiting;
  const Phase old_phase = u.phase;
  const bool old_assumed = u.assumed;

  u.phase = effective.phase;
  u.holds = effective.holds;
  if (u.pending_status && u.pending_written_rv.empty()) {
    // A write in flight reserves at once but releases only once it lands.
    const UnitFacts base = facts_of(u.object, u.landed_status ? *u.landed_status : u.object.status);
    if (base.holds) {
      if (!u.holds) {
        u.holds = true;
        u.charge = base.charge;
      } else {
        for (const auto& [r, v] : base.charge) u.charge[r] = std::max(u.charge[r], v);
      }
    }
  }
  // The unit's old and new queues, looked up once (map nodes stay put while other queues come and
  // go; none is erased below).
  auto queue_named = [this](const std::string& name) -> QueueState* {
    const auto it = queues_.find(name);
    return it == queues_.end() ? nullptr : &it->second;
  };
  QueueState* const new_q = u.quota.empty()                        ? nullptr
                            : !quota_changed && u.queue != nullptr ? u.queue
                                                                   : queue_named(u.quota);
  QueueState* const old_q = quota_changed ? queue_named(old_quota) : new_q;
  u.queue = new_q;
  const bool mapped = new_q != nullptr;
  // §3.1: a unit whose quantities are not valid is not admitted: it does not wait in its queue.
  if (mapped && effective.may_wait) {
    if (spec_changed || !old_waiting) u.invalid_quantities = invalid_quantities(u.object);
  } else {
    u.invalid_quantities.clear();
  }
  if (u.invalid_quantities.empty()) u.invalid_reported.clear();
  u.waiting = mapped && effective.may_wait && u.invalid_quantities.empty();
  OrderKey replaced_key;
  const bool key_changed =
      u.key.priority != effective.priority || u.key.creation != effective.creation || u.key.full_name != key;
  if (key_changed) replaced_key = std::exchange(u.key, OrderKey{effective.priority, effective.creation, key});
  const OrderKey& old_key = key_changed ? replaced_key : u.key;
  u.assumed = mapped && u.holds && effective.has_admissions && !effective.all_running;

  quotas_.recharge(old_quota, old_charge, old_holds, u.quota, u.charge, u.holds);
  if (changes_ != nullptr) {
    changes_->units.insert(key);
    changes_->labels.insert(old_quota);
    if (quota_changed) changes_->labels.insert(u.quota);
  }
  // The round index: the unit's queues, and the usage annotations along the paths it charges.
  if (old_q != nullptr) stir(*old_q);
  if (new_q != nullptr && new_q != old_q) stir(*new_q);
  if ((old_holds || u.holds) && (quota_changed || old_holds != u.holds || old_charge != u.charge)) {
    stir_usage_path(old_quota);
    if (quota_changed) stir_usage_path(u.quota);
  }

  const UnitChange change{old_quota, old_q,       new_q,   quota_changed,        old_holds, old_charge, old_waiting,
                          old_phase, old_assumed, old_key, effective.all_running};
  move_in_queues(u, key, change);
  settle_capacity_change(u, capacity_changed);
  note_unit_change(u, spec_changed, change);
  place_unit(u, key, change);
}

// Queue membership and blocks, and an assumed unit that lets its queue move on.
void Scheduler::move_in_queues(UnitState& u, const std::string& key, const UnitChange& c) {
  const std::string& old_quota = c.old_quota;
  QueueState* const old_q = c.old_q;
  QueueState* const new_q = c.new_q;
  const bool quota_changed = c.quota_changed;
  const bool old_waiting = c.old_waiting;
  const OrderKey& old_key = c.old_key;
  const bool mapped = new_q != nullptr;
  const bool moved = quota_changed;
  if (moved && old_q != nullptr) old_q->members.erase(key);
  if (mapped && (moved || !(u.indexed_in & kInMembers))) new_q->members.insert(key);
  if (old_waiting && (!u.waiting || old_key != u.key || quota_changed)) {
    if (old_q != nullptr) {
      old_q->waiting.erase(old_key);
      reset_cursor(*old_q);
      if (old_q->blocked.count(old_quota) && (!u.waiting || quota_changed)) {
        // A unit of a blocked quota left the queue: unblock, and let the blocker retry.
        if (auto b = units_.find(old_q->blocked.at(old_quota)); b != units_.end()) wake_backoff(b->second);
        old_q->blocked.erase(old_quota);
      }
    }
  }
  if (u.waiting && (!old_waiting || old_key != u.key || quota_changed)) {
    QueueState& q = *new_q;
    q.waiting.insert(u.key);
    if (u.backoff_until) q.backoff_ends.emplace(*u.backoff_until, key);
    reset_cursor(q);
    if (!old_waiting || quota_changed) {
      if (auto b = q.blocked.find(u.quota); b != q.blocked.end() && b->second != key) {
        if (auto bu = units_.find(b->second); bu != units_.end()) wake_backoff(bu->second);
        q.blocked.erase(b);
      }
    }
  }

  // An assumed unit that became all-running, or left, lets its queue move on (§6.3, §6.4, §9).
  if (c.old_assumed && !u.assumed) {
    if (old_q != nullptr) {
      QueueState& q = *old_q;
      reset_cursor(q);
      wake_queue(q);
      if (q.settings.wait_for_pods_running && c.all_running) {
        for (const auto& [quota, blocker] : q.blocked) {
          if (auto b = units_.find(blocker); b != units_.end()) wake_backoff(b->second);
        }
        q.blocked.clear();
      }
    }
  }
}

// Mapping problems, releases of capacity, and the phase's timestamps and due reports.
void Scheduler::note_unit_change(UnitState& u, bool spec_changed, const UnitChange& c) {
  const std::string& old_quota = c.old_quota;
  QueueState* const old_q = c.old_q;
  const bool mapped = c.new_q != nullptr;
  const bool old_holds = c.old_holds;
  const Phase old_phase = c.old_phase;
  // Mapping problems (§4): the 10 s grace starts when a labelled unit has no queue.
  if (mapped || u.quota.empty()) {
    u.unmapped_since.reset();
    if (mapped) u.queue_not_found_reported = false;
  } else if (!u.unmapped_since) {
    u.unmapped_since = now_;
  }

  // Releases and capacity (§6.3, §6.4, §8.3).
  const bool released = old_holds && (!u.holds || decreased(c.old_charge, u.charge));
  if (released) {
    if (old_q != nullptr) {
      if (u.phase != Phase::kSchedFailed) reset_cursor(*old_q);
      if (auto b = old_q->blocked.find(old_quota); b != old_q->blocked.end()) {
        if (auto bu = units_.find(b->second); bu != units_.end()) wake_backoff(bu->second);
        old_q->blocked.erase(b);
      }
    }
    on_capacity_change(old_quota, &u);
  }

  // Phase bookkeeping.
  if (u.phase == Phase::kEnqueued && old_phase != Phase::kEnqueued) {
    u.enqueued_at = now_;
    u.failures = 0;
  }
  if (u.phase == Phase::kRunning && old_phase != Phase::kRunning) {
    u.running_since = now_;
    u.max_exec_reported = false;
  } else if (u.phase != Phase::kRunning) {
    u.running_since.reset();
  }
  if ((u.phase == Phase::kSchedSucceed || u.phase == Phase::kSchedFailed) && old_phase != u.phase &&
      u.object.status.phase == phase_name(u.phase)) {
    u.phase_event_due = u.phase;
  }
  if (spec_changed) wake_backoff(u);
  if (!u.spec_queue_sent.empty() && u.object.spec.queue == u.spec_queue_sent) {
    u.spec_queue_sent.clear();  // the write is visible
    u.spec_queue_sent_seq = 0;
  }
}

// The unit in its queue's derived sets and the unit indexes, and the timers of its old and new queue.
void Scheduler::place_unit(UnitState& u, const std::string& key, const UnitChange& c) {
  const std::string& old_quota = c.old_quota;
  QueueState* const old_q = c.old_q;
  QueueState* const new_q = c.new_q;
  const bool mapped = new_q != nullptr;
  const bool moved = c.quota_changed;
  if (moved && old_q != nullptr) {
    old_q->housekeeping.erase(key);
    old_q->not_waiting.erase(key);
    old_q->backoff.erase(key);
  }
  if (mapped) {
    // A unit that moved queues is placed in each set of the new one; one that stayed only where
    // its place changes.
    QueueState& q = *new_q;
    const auto place = [&](std::set<std::string>& set, uint8_t bit, bool in) {
      if (!moved && in == ((u.indexed_in & bit) != 0)) return;
      if (in) {
        set.insert(key);
      } else {
        set.erase(key);
      }
    };
    const bool in_housekeeping = may_have_housekeeping(u);
    const bool in_not_waiting = !u.waiting;
    const bool in_backoff = u.backoff_until.has_value();
    place(q.housekeeping, kInHousekeeping, in_housekeeping);
    place(q.not_waiting, kInNotWaiting, in_not_waiting);
    place(q.backoff, kInBackoff, in_backoff);
    u.indexed_in = kInMembers | (in_housekeeping ? kInHousekeeping : 0) | (in_not_waiting ? kInNotWaiting : 0) |
                   (in_backoff ? kInBackoff : 0);
  } else {
    u.indexed_in = 0;
  }
  index_unit(key, u);
  // Every queue timer this function can move is on the unit's old or new queue.
  if (old_q != nullptr) retime_queue(*old_q, old_quota);
  if (new_q != nullptr && new_q != old_q) retime_queue(*new_q, u.quota);
}

bool pending_execution_limit(const UnitState& u) {
  return u.object.spec.maximum_execution_time_seconds.value_or(0) > 0 && u.running_since.has_value() &&
         !u.max_exec_reported;
}

bool pending_queue_not_found(const UnitState& u) {
  return u.unmapped_since.has_value() && !u.queue_not_found_reported && !u.quota.empty();
}

bool owes_spec_queue(const UnitState& u) {
  if (u.quota.empty() || u.object.spec.queue == u.quota || u.spec_queue_sent == u.quota) return false;
  const Phase observed = u.observed_phase;
  return !u.object.status.admissions.empty() &&
         (observed == Phase::kReserved || observed == Phase::kDequeued || observed == Phase::kRunning);
}

bool pending_invalid_report(const UnitState& u) {
  return !u.invalid_quantities.empty() && u.invalid_reported != u.invalid_quantities;
}

bool may_have_housekeeping(const UnitState& u) {
  return u.deactivation_due || pending_execution_limit(u) || u.phase_event_due.has_value() ||
         (u.phase == Phase::kReserved && !u.pending_status) || owes_spec_queue(u) || pending_invalid_report(u);
}

void Scheduler::index_unit(const std::string& key, const UnitState& u) {
  auto put = [&](std::set<std::string>& index, bool in) {
    if (in) {
      index.insert(key);
    } else {
      index.erase(key);
    }
  };
  put(unmapped_pending_, pending_queue_not_found(u));
  put(execution_limited_, pending_execution_limit(u));
}

bool Scheduler::rebuild_indexes() {
  unmapped_pending_.clear();
  execution_limited_.clear();
  queue_timers_.clear();
  stir_all();
  for (auto& [name, q] : queues_) {
    q.timer.reset();
    retime_queue(name);
    q.housekeeping.clear();
    q.not_waiting.clear();
    q.backoff.clear();
    q.backoff_ends.clear();
  }
  // Keys are visited in order, so every set below is appended to at its end, and each queue's
  // members are met in their own order: a member that is not met where expected is no unit mapped
  // to that queue, and the per-member search below handles it.
  struct MemberCursor {
    std::string_view name;
    QueueState* queue;
    std::set<std::string>::const_iterator next;
  };
  std::unordered_map<std::string_view, MemberCursor> cursors;
  for (auto& [name, q] : queues_) cursors.emplace(name, MemberCursor{name, &q, q.members.begin()});
  const auto append = [](std::set<std::string>& set, const std::string& key) { set.emplace_hint(set.end(), key); };
  bool in_order = true;
  MemberCursor* last = nullptr;
  for (auto& [key, u] : units_) {
    if (pending_queue_not_found(u)) append(unmapped_pending_, key);
    if (pending_execution_limit(u)) append(execution_limited_, key);
    u.indexed_in = 0;
    if (!in_order || u.quota.empty()) continue;
    if (last == nullptr || last->name != u.quota) {
      const auto c = cursors.find(u.quota);
      if (c == cursors.end()) continue;
      last = &c->second;
    }
    MemberCursor& c = *last;
    if (c.next == c.queue->members.end() || *c.next != key) {
      in_order = c.next == c.queue->members.end() || key < *c.next;
      continue;  // not a member (or the order is broken, which the fallback sorts out)
    }
    ++c.next;
    index_member(*c.queue, key, u, append);
  }
  for (const auto& [name, c] : cursors) in_order = in_order && c.next == c.queue->members.end();
  repoint_units();
  if (in_order) return true;

  bool every_member_is_a_unit = true;
  const auto insert = [](std::set<std::string>& set, const std::string& key) { set.insert(key); };
  for (auto& [key, u] : units_) u.indexed_in = 0;
  for (auto& [name, q] : queues_) {
    q.housekeeping.clear();
    q.not_waiting.clear();
    q.backoff.clear();
    q.backoff_ends.clear();
    for (const auto& key : q.members) {
      const auto u = units_.find(key);
      if (u == units_.end()) {
        every_member_is_a_unit = false;
        continue;
      }
      index_member(q, key, u->second, insert);
    }
  }
  return every_member_is_a_unit;
}

template <class Insert>
void Scheduler::index_member(QueueState& q, const std::string& key, UnitState& u, const Insert& insert) {
  uint8_t in = kInMembers;
  if (may_have_housekeeping(u)) {
    insert(q.housekeeping, key);
    in |= kInHousekeeping;
  }
  if (!u.waiting) {
    insert(q.not_waiting, key);
    in |= kInNotWaiting;
  }
  if (u.backoff_until) {
    insert(q.backoff, key);
    q.backoff_ends.emplace(*u.backoff_until, key);
    in |= kInBackoff;
  }
  u.indexed_in |= in;
}

}  // namespace koordq::actors
