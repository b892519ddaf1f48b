// Scheduler: folding observed objects, outcomes and role changes into the state.
#include <algorithm>
#include <unordered_map>
#include <utility>

#include "actors/core/policy_periods.hpp"
#include "actors/core/scheduler.hpp"

namespace koordq::actors {
namespace {

// Numeric when both are integers (as etcd revisions are), else equality only.
bool resource_version_reached(const std::string& observed, const std::string& written) {
  if (observed == written) return true;
  char* end_a = nullptr;
  char* end_b = nullptr;
  const unsigned long long a = std::strtoull(observed.c_str(), &end_a, 10);
  const unsigned long long b = std::strtoull(written.c_str(), &end_b, 10);
  if (observed.empty() || written.empty() || *end_a != '\0' || *end_b != '\0') return false;
  return a >= b;
}

}  // namespace

Scheduler::Scheduler(const Scheduler& other)
    : config_(other.config_),
      now_(other.now_),
      units_(other.units_),
      queues_(other.queues_),
      quotas_(other.quotas_),
      auto_queues_(other.auto_queues_),
      metrics_(other.metrics_),
      previous_now_(other.previous_now_),
      relist_cutoff_(other.relist_cutoff_),
      relisting_units_(other.relisting_units_),
      queue_timers_(other.queue_timers_),
      unmapped_pending_(other.unmapped_pending_),
      execution_limited_(other.execution_limited_),
      settings_version_(other.settings_version_),
      capacity_changes_(other.capacity_changes_) {
  repoint_units();
}

Scheduler& Scheduler::operator=(const Scheduler& other) {
  if (this != &other) *this = Scheduler(other);
  return *this;
}

void Scheduler::repoint_units() {
  // Units are ordered by namespace, which often goes with the quota: the last queue found is
  // tried first.
  const std::string* last_quota = nullptr;
  QueueState* last_queue = nullptr;
  for (auto& [key, u] : units_) {
    if (u.quota.empty()) {
      u.queue = nullptr;
      continue;
    }
    if (last_quota == nullptr || *last_quota != u.quota) {
      const auto q = queues_.find(u.quota);
      last_quota = &u.quota;
      last_queue = q == queues_.end() ? nullptr : &q->second;
    }
    u.queue = last_queue;
  }
}

std::string unit_key(const std::string& ns, const std::string& name) {
  std::string key;  // one allocation (`ns + "/" + name` may make two)
  key.reserve(ns.size() + 1 + name.size());
  key.append(ns).push_back('/');
  key.append(name);
  return key;
}

void Scheduler::advance_to(int64_t now) {
  if (now > now_) {
    previous_now_ = now_;
    now_ = now;
  }
  // Series of a namespace without QueueUnits for 5 minutes are removed (§15.4).
  for (auto it = metrics_.namespace_empty_since.begin(); it != metrics_.namespace_empty_since.end();) {
    if (now_ < it->second + kFiveMinutes) {
      ++it;
      continue;
    }
    std::erase_if(metrics_.coming, [&](const auto& entry) { return std::get<0>(entry.first) == it->first; });
    it = metrics_.namespace_empty_since.erase(it);
  }
  // The queues with a timer due, in name order (as a walk over every queue would meet them).
  if (queue_timers_.empty() || queue_timers_.begin()->first > now_) return;
  std::vector<QueueMap::iterator> due;
  for (auto it = queue_timers_.begin(); it != queue_timers_.end() && it->first <= now_; ++it) {
    if (const auto q = queues_.find(it->second); q != queues_.end()) due.push_back(q);
  }
  std::sort(due.begin(), due.end(), [](const auto& a, const auto& b) { return a->first < b->first; });
  for (const QueueMap::iterator& entry : due) {
    const std::string& name = entry->first;
    QueueState& q = entry->second;
    if (q.cursor && now_ >= q.last_reset + kThreeMinutes) reset_cursor(q);
    // A due publication that would change nothing is skipped until the next interval (§14.1).
    if (q.settings.show_queue_items && q.next_publish && now_ >= *q.next_publish) {
      const auto& current = q.last_published ? q.last_published : q.object.status.queue_item_details;
      if (current && *current == queue_item_details(*this, q))
        q.next_publish = now_ + q.settings.refresh_interval_nanos;
    }
    if (!q.blocked.empty() && now_ >= q.last_activity + kThreeMinutes) {
      for (const auto& [quota, blocker] : q.blocked) {
        if (auto it = units_.find(blocker); it != units_.end()) wake_backoff(it->second);
      }
      q.blocked.clear();
    }
    retime_queue(q, name);
  }
}

void Scheduler::retime_queue(const std::string& name) {
  if (const auto it = queues_.find(name); it != queues_.end()) retime_queue(it->second, name);
}

void Scheduler::retime_queue(QueueState& q, const std::string& name) {
  stir(q);
  std::optional<int64_t> due;
  auto consider = [&](int64_t t) { due = due ? std::min(*due, t) : t; };
  if (q.cursor) consider(q.last_reset + kThreeMinutes);
  // A publication check compares with what the Queue shows; with nothing shown yet it does nothing.
  if (q.settings.show_queue_items && q.next_publish && (q.last_published || q.object.status.queue_item_details)) {
    consider(*q.next_publish);
  }
  if (!q.blocked.empty()) consider(q.last_activity + kThreeMinutes);
  if (due == q.timer) return;
  if (q.timer) queue_timers_.erase({*q.timer, name});
  if (due) queue_timers_.emplace(*due, name);
  q.timer = due;
}

void Scheduler::reset_cursor(QueueState& q) {
  stir(q);
  q.cursor.reset();
  q.last_reset = now_;
}

QueueState* Scheduler::queue_of(const UnitState& u) {
  return u.queue;
}

void Scheduler::remove_from_queue(const std::string& queue, const OrderKey& key) {
  auto it = queues_.find(queue);
  if (it != queues_.end()) it->second.waiting.erase(key);
}

void Scheduler::back_off(UnitState& u, int64_t until) {
  u.backoff_until = until;
  if (changes_ != nullptr) changes_->labels.insert(u.quota);
  QueueState* q = queue_of(u);
  if (q != nullptr) q->backoff_ends.emplace(until, u.key.full_name);
  if (q != nullptr && (u.indexed_in & kInMembers)) {
    q->backoff.insert(u.key.full_name);
    u.indexed_in |= kInBackoff;
    stir(*q);
  }
}

void Scheduler::wake_backoff(UnitState& u) {
  if (!u.backoff_until) return;
  u.backoff_until.reset();
  if (changes_ != nullptr) changes_->labels.insert(u.quota);
  if (QueueState* q = queue_of(u); q != nullptr) {
    q->backoff.erase(u.key.full_name);
    stir(*q);
  }
  u.indexed_in &= ~kInBackoff;
}

void Scheduler::wake_queue(QueueState& q) {
  stir(q);
  for (const auto& key : q.backoff) {
    if (auto it = units_.find(key); it != units_.end()) {
      it->second.backoff_until.reset();
      it->second.indexed_in &= ~kInBackoff;
      if (changes_ != nullptr) changes_->labels.insert(it->second.quota);
    }
  }
  q.backoff.clear();
  q.backoff_ends.clear();
}

void Scheduler::on_capacity_change(const std::string& quota, UnitState* refreshing) {
  // The waiting units whose path contains the quota: those of the queues of its subtree. Each is
  // marked by its queue's count (capacity_changed_since_attempt), and those backing off wake: a
  // search per unit backing off, not per waiting unit.
  const uint64_t before = capacity_changes_;
  std::vector<UnitState*> woken;
  const auto wake = [&](const std::string& name) {
    const auto q = queues_.find(name);
    if (q == queues_.end()) return;
    stir(q->second);
    q->second.last_capacity_change = ++capacity_changes_;
    woken.clear();
    for (const std::string& key : q->second.backoff) {
      if (auto it = units_.find(key); it != units_.end() && it->second.waiting && it->second.quota == name) {
        woken.push_back(&it->second);
      }
    }
    for (UnitState* u : woken) wake_backoff(*u);  // takes the unit out of `backoff`
  };
  if (!quotas_.known(quota) || !quotas_.has_children(quota)) {
    wake(quota);  // a leaf: no list built
  } else {
    for (const auto& name : quotas_.subtree(quota)) wake(name);
  }
  // A unit in the middle of its refresh is in its new queue's waiting set but not yet in its
  // `backoff` set.
  if (refreshing != nullptr && refreshing->waiting && refreshing->queue != nullptr &&
      refreshing->queue->last_capacity_change > before) {
    wake_backoff(*refreshing);
  }
}

void Scheduler::settle_capacity_change(UnitState& u, bool changed) const {
  u.capacity_changed = changed;
  u.capacity_seen = capacity_changes_;
}

void Scheduler::apply_object(const schema::WatchedObject& object, bool deleted) {
  apply_object(schema::WatchedObject(object), deleted);
}

void Scheduler::apply_object(schema::WatchedObject&& object, bool deleted) {
  switch (schema::kind_of(object)) {
    case schema::ObjectKind::kQueueUnit:
      apply_unit_object(std::get<schema::QueueUnit>(object), deleted);
      return;
    case schema::ObjectKind::kQueue:
      apply_queue_object(std::get<schema::Queue>(object), deleted);
      return;
    case schema::ObjectKind::kElasticQuota: {
      const auto& quota = std::get<schema::ElasticQuota>(object);
      const bool changed =
          deleted ? quotas_.remove(quota.metadata.namespace_, quota.metadata.name) : quotas_.upsert(quota);
      if (changed) on_capacity_change(quota.metadata.name);
      stir_all();
      adopt_queue(quota.metadata.name);
      settle_auto_queue(quota.metadata.name);
      return;
    }
  }
}

void Scheduler::apply_unit_object(schema::QueueUnit& unit, bool deleted) {
  const std::string key = unit_key(unit.metadata.namespace_, unit.metadata.name);
  const auto hint = units_.lower_bound(key);  // where a new unit goes: one search for both
  auto it = hint != units_.end() && hint->first == key ? hint : units_.end();
  if (deleted) {
    if (it != units_.end()) forget_unit(it, key, unit.metadata.namespace_);
    return;
  }
  const bool is_new = it == units_.end() || it->second.object.metadata.uid != unit.metadata.uid;
  if (is_new) {
    const bool replaced = it != units_.end();  // a new UID under the key: the old unit goes first
    if (replaced) apply_object(schema::WatchedObject(it->second.object), true);
    // Built in its node (the replaced unit's node, the hint, was erased with it).
    it = replaced ? units_.try_emplace(key).first : units_.try_emplace(hint, key);
    UnitState& fresh = it->second;
    fresh.enqueued_at = unit.metadata.creation_timestamp.value_or(now_);
    fresh.attempts = unit.status.attempts;
    fresh.observed_phase = effective_phase(unit.status.phase);
    const int64_t created = unit.metadata.creation_timestamp.value_or(0);
    fresh.object = std::move(unit);
    note_namespace(it->second.object.metadata.namespace_, true);
    // A unit first seen enters its phase; in a relist only if it was created while koordq
    // was not watching (§15.4).
    if (!relisting_units_ || !relist_cutoff_ || created > *relist_cutoff_) {
      count_phase(it->second, it->second.observed_phase);
    }
    refresh_unit(it->second, key, false);
    return;
  }
  UnitState& u = it->second;
  const bool spec_changed = u.object.spec != unit.spec || u.object.metadata.labels != unit.metadata.labels ||
                            u.object.metadata.annotations != unit.metadata.annotations;
  const bool was_active = u.object.spec.active.value_or(true);
  u.object = std::move(unit);
  const schema::QueueUnit& observed_unit = u.object;
  u.attempts = std::max(u.attempts, observed_unit.status.attempts);
  if (const Phase observed = effective_phase(observed_unit.status.phase); observed != u.observed_phase) {
    u.observed_phase = observed;
    count_phase(u, observed);
  }
  if (u.pending_status && !u.pending_written_rv.empty() &&
      resource_version_reached(observed_unit.metadata.resource_version, u.pending_written_rv)) {
    u.pending_status.reset();  // the write is visible: the object is the basis again
    u.pending_written_rv.clear();
  }
  if (u.landed_status && resource_version_reached(observed_unit.metadata.resource_version, u.landed_rv)) {
    u.landed_status.reset();
    u.landed_rv.clear();
  }
  if (was_active && !observed_unit.spec.active.value_or(true) &&
      !is_terminal(effective_phase(observed_unit.status.phase))) {
    u.deactivation_due = true;
  }
  if (observed_unit.spec.active.value_or(true)) u.deactivation_due = false;
  refresh_unit(u, key, spec_changed);
}

// Folds the deletion of the unit at `it` as "stops holding and waiting", then forgets it.
void Scheduler::forget_unit(UnitMap::iterator it, const std::string& key, const std::string& ns) {
  it->second.object.metadata.deletion_timestamp = now_;
  it->second.object.status.admissions.clear();
  it->second.object.status.phase = "Failed";
  it->second.pending_status.reset();
  refresh_unit(it->second, key, false);
  if (auto q = queues_.find(it->second.quota); q != queues_.end()) {
    const uint8_t in = it->second.indexed_in;
    if (in & kInMembers) q->second.members.erase(key);
    q->second.victims.erase(key);
    if (in & kInHousekeeping) q->second.housekeeping.erase(key);
    if (in & kInNotWaiting) q->second.not_waiting.erase(key);
    if (in & kInBackoff) q->second.backoff.erase(key);
    stir(q->second);
  }
  unmapped_pending_.erase(key);
  execution_limited_.erase(key);
  // Units are ordered by "<ns>/<name>": the namespace keeps a unit iff a neighbour is in it.
  const auto in_ns = [&ns](const std::string& k) {
    return k.size() > ns.size() && k[ns.size()] == '/' && k.compare(0, ns.size(), ns) == 0;
  };
  const auto next = units_.erase(it);
  const bool others =
      (next != units_.end() && in_ns(next->first)) || (next != units_.begin() && in_ns(std::prev(next)->first));
  note_namespace(ns, others);
}

void Scheduler::apply_queue_object(const schema::Queue& queue, bool deleted) {
  if (queue.metadata.namespace_ != config_.queue_namespace) return;
  const std::string& name = queue.metadata.name;
  if (deleted) {
    auto it = queues_.find(name);
    if (it == queues_.end()) return;
    stir_all();
    ++settings_version_;
    const auto members = it->second.members;
    if (it->second.timer) queue_timers_.erase({*it->second.timer, name});
    // Every unit pointing at the queue, not only its members: a restored state whose member
    // list missed a unit must not keep a dangling pointer. Queues go rarely.
    for (auto& [key, u] : units_) {
      if (u.queue == &it->second) {
        settle_capacity_change(u, u.capacity_changed_since_attempt());
        u.queue = nullptr;
      }
    }
    queues_.erase(it);
    for (const auto& key : members) refresh_unit(key, false);
    // Every series labelled with the queue goes with it (§15.4).
    std::erase_if(metrics_.attempts, [&](const auto& entry) { return entry.first.first == name; });
    metrics_.admission_wait.erase(name);
    // A Queue koordq keeps is created again while its quota exists (§2.5).
    if (auto a = auto_queues_.find(name); a != auto_queues_.end() && !a->second.in_flight) {
      a->second.synced.reset();
    }
    settle_auto_queue(name);
    return;
  }
  auto [it, inserted] = queues_.try_emplace(name);
  QueueState& q = it->second;
  const QueueSettings before = q.settings;
  // koordq's own writes (usage annotations, queueItemDetails) are no change of the Queue (§14.3).
  const bool changed = inserted || queue_changed(q.object, queue);
  q.object = queue;
  if (!changed) {
    retime_queue(name);  // the queueItemDetails it shows may have changed
    return;
  }
  q.settings = settings_of(queue);
  stir_all();
  ++settings_version_;
  if (inserted) {
    adopt_queue(name);
    q.last_reset = now_;
    q.last_activity = now_;
    q.next_publish = now_;
    // Units labelled with this name become mapped at once (§4).
    for (auto& [key, u] : units_) {
      if (u.quota == name) refresh_unit(u, key, false);
    }
  } else {
    if (before.policy != q.settings.policy) {
      reset_cursor(q);
      q.blocked.clear();
    }
    // §14.1: a new refresh interval counts from the last refresh (the time the old interval
    // was counted from) at once, not only after the refresh the old interval scheduled.
    if (before.refresh_interval_nanos != q.settings.refresh_interval_nanos && q.next_publish && q.last_published) {
      const int64_t last = *q.next_publish - before.refresh_interval_nanos;
      q.next_publish = std::max(now_, last + q.settings.refresh_interval_nanos);
    }
  }
  retime_queue(name);
}

void Scheduler::apply_outcome(const Outcome& outcome) {
  if (const auto* qref = std::get_if<QueueRef>(&outcome.target)) {
    if (outcome.write_kind != WriteKind::kQueueWrite) return;
    stir_queue(qref->name);
    const bool landed = outcome.result == OutcomeResult::kSuccess;
    if (auto q = queues_.find(qref->name); q != queues_.end() && !landed && q->second.usage_written &&
                                           q->second.usage_seq == outcome.decision_seq &&
                                           q->second.usage_index == outcome.decision_index) {
      q->second.usage_written.reset();  // compare with the object again: a later round retries
    }
    auto a = auto_queues_.find(qref->name);
    if (a == auto_queues_.end() || !a->second.in_flight || a->second.in_flight_seq != outcome.decision_seq ||
        a->second.in_flight_index != outcome.decision_index) {
      return;
    }
    stir_auto_queues();
    AutoQueue& aq = a->second;
    const DecisionKind kind = *aq.in_flight;
    aq.in_flight.reset();
    if (kind == DecisionKind::kQueueDelete) {
      // Gone (or already gone): the bookkeeping ends with the quota; a failure retries.
      if (landed || outcome.result == OutcomeResult::kNotFound) {
        if (!quotas_.known(qref->name)) {
          auto_queues_.erase(a);
          return;
        }
        aq.synced.reset();
      }
    } else if (!landed) {
      aq.synced = aq.before;                                            // a later round decides the write again
      if (kind == DecisionKind::kQueueCreate) adopt_queue(qref->name);  // AlreadyExists: adopt it
    }
    aq.before.reset();
    settle_auto_queue(qref->name);
    return;
  }
  const auto* ref = std::get_if<UnitRef>(&outcome.target);
  if (ref == nullptr) return;
  const std::string key = unit_key(ref->namespace_, ref->name);
  auto it = units_.find(key);
  if (it == units_.end() || it->second.object.metadata.uid != ref->uid) return;
  UnitState& u = it->second;
  if (outcome.write_kind == WriteKind::kSpecQueuePatch) {
    // Never sent (its status write failed first), never answered, or refused by its
    // resourceVersion precondition on a unit that changed (409): a later round writes it again,
    // on the unit as the watch then shows it. A definite error stays as it is: the same write
    // would fail the same way.
    const bool again = outcome.result == OutcomeResult::kUnknown || outcome.result == OutcomeResult::kConflict;
    if (again && u.spec_queue_sent_seq == outcome.decision_seq) {
      u.spec_queue_sent.clear();
      u.spec_queue_sent_seq = 0;
      refresh_unit(u, key, false);
    }
    return;
  }
  if (outcome.write_kind != WriteKind::kStatusPatch) return;
  if (u.pending_decision_seq != outcome.decision_seq) return;  // superseded by a later decision
  if (outcome.result == OutcomeResult::kSuccess) {
    u.pending_written_rv = outcome.resource_version;
    u.landed_status.reset();
    u.landed_rv.clear();
    if (resource_version_reached(u.object.metadata.resource_version, outcome.resource_version)) {
      u.pending_status.reset();
    }
    refresh_unit(u, key, false);
    return;
  }
  // The write did not land: back to what the server holds (§7.3).
  if (u.landed_status) {
    u.pending_status = std::move(u.landed_status);
    u.pending_written_rv = std::move(u.landed_rv);
    u.landed_status.reset();
    u.landed_rv.clear();
  } else {
    u.pending_status.reset();
    u.pending_written_rv.clear();
  }
  refresh_unit(u, key, false);
}

void Scheduler::apply_role_acquired() {
  stir_all();
  for (auto& [key, u] : units_) {
    u.failures = 0;
    u.backoff_until.reset();
    u.indexed_in &= ~kInBackoff;
    settle_capacity_change(u, false);
    // The writes of an earlier leader (or process) are gone with it: what the objects still lack
    // is written again.
    u.spec_queue_sent.clear();
    u.spec_queue_sent_seq = 0;
  }
  forget_queue_writes();
  for (auto& [name, q] : queues_) {
    reset_cursor(q);
    q.backoff.clear();
    q.backoff_ends.clear();
    q.blocked.clear();
    q.last_attempt.reset();
    q.last_tried.clear();
    q.last_activity = now_;
    q.victims.clear();
    // Rounds in flight are rebuilt from the units still carrying reclaimState (§11).
    for (const auto& key : q.members) {
      UnitState& u = units_.at(key);
      if (owes_spec_queue(u)) {
        q.housekeeping.insert(key);
        u.indexed_in |= kInHousekeeping;
      }
      int64_t marked = 0;
      for (const auto& a : u.status().admissions) {
        if (a.reclaim_state) marked += a.reclaim_state->replicas;
      }
      if (marked > 0) q.victims[key] = marked;
    }
    retime_queue(name);
  }
}

// An earlier leader's or process's Queue writes may never have landed (it may have ended before
// their answers), so the next rounds compare queueItemDetails and the usage annotations with the
// observed Queues again, and a publication is due at once (§14.1, §14.3).
void Scheduler::forget_queue_writes() {
  for (auto& [name, q] : queues_) {
    q.usage_written.reset();
    q.last_published.reset();
    if (q.next_publish && *q.next_publish > now_) q.next_publish = now_;
    retime_queue(q, name);
  }
}

}  // namespace koordq::actors
