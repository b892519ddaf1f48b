// Scheduler: applying a round record. Decisions take effect here, live and on replay alike
// (design.md §3): reservations, phase changes, backoff, cursors, blocks, preemption rounds.
#include <algorithm>
#include <type_traits>

#include "actors/core/scheduler.hpp"
#include "actors/core/status_change.hpp"
#include "base/go_duration.hpp"

namespace koordq::actors {
namespace {

using base::kSecond;

// The items a create writes onto the Queue (§2.5).
QueueItems items_of(const schema::Queue& q) {
  QueueItems items;
  items.queue_policy = q.spec.queue_policy;
  if (auto it = q.metadata.labels.find("quota.scheduling.koordinator.sh/parent"); it != q.metadata.labels.end()) {
    items.parent = it->second;
  }
  if (auto it = q.metadata.annotations.find("quota-koord-queue-enable"); it != q.metadata.annotations.end()) {
    items.enable = it->second;
  }
  return items;
}

void patch_items(QueueItems& items, const QueuePatch& p) {
  if (p.queue_policy) items.queue_policy = *p.queue_policy;
  if (auto it = p.labels.find("quota.scheduling.koordinator.sh/parent"); it != p.labels.end())
    items.parent = it->second;
  if (auto it = p.annotations.find("quota-koord-queue-enable"); it != p.annotations.end()) items.enable = it->second;
}

int64_t backoff_nanos(const DecisionConfig& c, int64_t failures) {
  int64_t d = c.initial_backoff_nanos;
  for (int64_t i = 1; i < failures && d < c.max_backoff_nanos; ++i) d *= 2;
  return std::min(d, c.max_backoff_nanos);
}

}  // namespace

void Scheduler::apply_round(uint64_t round_seq, const std::vector<Decision>& decisions) {
  apply_decisions(round_seq, decisions);
}

void Scheduler::apply_round(uint64_t round_seq, std::vector<Decision>&& decisions) {
  apply_decisions(round_seq, decisions);
}

// `Decisions` is a const or a mutable vector: the queue writes a Queue keeps (queueItemDetails,
// usage annotations: maps of strings) are moved out of a vector the caller gave away.
template <class Decisions>
void Scheduler::apply_decisions(uint64_t round_seq, Decisions& decisions) {
  for (uint32_t index = 0; index < decisions.size(); ++index) {
    auto& d = decisions[index];
    if (const auto* qref = std::get_if<QueueRef>(&d.target)) {
      apply_queue_decision(round_seq, index, *qref, d);
    } else {
      apply_unit_decision(round_seq, std::get<UnitRef>(d.target), d);
    }
  }
}

template <class D>
void Scheduler::apply_queue_decision(uint64_t round_seq, uint32_t index, const QueueRef& ref, D& d) {
  constexpr bool kOwned = !std::is_const_v<D>;
  stir_queue(ref.name);
  if (d.kind == DecisionKind::kQueueCreate || d.kind == DecisionKind::kQueuePatch ||
      d.kind == DecisionKind::kQueueDelete) {
    stir_auto_queues();
    // §2.5: the write is in flight until its outcome; a failure restores `before`.
    AutoQueue& a = auto_queues_[ref.name];
    a.before = a.synced;
    a.in_flight = d.kind;
    a.in_flight_seq = round_seq;
    a.in_flight_index = index;
    if (d.queue_write) {
      if (const auto* created = std::get_if<schema::Queue>(&*d.queue_write)) {
        a.synced = items_of(*created);
      } else if (const auto* patch = std::get_if<QueuePatch>(&*d.queue_write)) {
        if (!a.synced) {
          const QuotaInfo* quota = quotas_.find(ref.name);
          a.synced = quota != nullptr ? queue_items_of(*quota) : QueueItems{};
        }
        patch_items(*a.synced, *patch);
      }
    }
    return;
  }
  auto it = queues_.find(ref.name);
  if (it == queues_.end()) return;
  QueueState& q = it->second;
  switch (d.kind) {
    case DecisionKind::kAddQueueFail:
      q.add_queue_fail_reported.insert(q.object.metadata.uid + "/" + q.settings.policy_text);
      break;
    case DecisionKind::kInvalidRefreshInterval:
      q.invalid_interval_reported.insert(d.reason);
      break;
    case DecisionKind::kPublishQueueItems:
      if (d.queue_write) {
        if (auto* details = std::get_if<schema::QueueItemDetails>(&*d.queue_write)) {
          if constexpr (kOwned) {
            q.last_published = std::move(*details);
          } else {
            q.last_published = *details;
          }
        }
      }
      q.next_publish = now_ + q.settings.refresh_interval_nanos;
      retime_queue(ref.name);
      break;
    case DecisionKind::kQueueUsageAnnotations:
      if (d.queue_write) {
        if (auto* usage = std::get_if<UsageAnnotations>(&*d.queue_write)) {
          if constexpr (kOwned) {
            q.usage_written = std::move(*usage);
          } else {
            q.usage_written = *usage;
          }
        }
      }
      q.usage_next = now_ + kSecond;  // at most once per second per Queue (§14.3)
      q.usage_seq = round_seq;
      q.usage_index = index;
      break;
    default:
      break;
  }
}

template <class D>
void Scheduler::apply_unit_decision(uint64_t round_seq, const UnitRef& ref, D& d) {
  constexpr bool kOwned = !std::is_const_v<D>;
  const std::string key = unit_key(ref.namespace_, ref.name);
  auto it = units_.find(key);
  if (it == units_.end() || it->second.object.metadata.uid != ref.uid) return;
  UnitState& u = it->second;
  const Phase phase_before = u.phase;
  const int64_t enqueued_at = u.enqueued_at;
  if (d.status_patch) {
    if (u.pending_status && !u.pending_written_rv.empty()) {
      u.landed_status = u.pending_status;
      u.landed_rv = u.pending_written_rv;
    }
    if constexpr (kOwned) {
      u.pending_status = merged_taking_lists(u.status(), *d.status_patch);  // only phase and attempts are read below
    } else {
      u.pending_status = merged(u.status(), *d.status_patch);
    }
    u.pending_written_rv.clear();
    u.pending_decision_seq = round_seq;
    if (d.status_patch->attempts) u.attempts = std::max(u.attempts, *d.status_patch->attempts);
  }
  if (d.spec_queue_patch) {
    u.spec_queue_sent = *d.spec_queue_patch;
    u.spec_queue_sent_seq = round_seq;
  }
  QueueState* q = u.queue;  // the decision's queue is the unit's, but for a round decided before a change
  if (q == nullptr || ref.queue != u.quota) {
    const auto q_it = queues_.find(ref.queue);
    q = q_it == queues_.end() ? nullptr : &q_it->second;
  }
  switch (d.kind) {
    case DecisionKind::kAdmit:
    case DecisionKind::kReserve:
      apply_attempt(u, key, d, q, phase_before, enqueued_at);
      break;
    case DecisionKind::kFail:
      apply_failed_attempt(u, key, d, q);
      break;
    case DecisionKind::kPreempt:
      if (q != nullptr && !d.victims.empty()) q->victims[key] = d.victims.front().replicas;
      break;
    case DecisionKind::kReclaimObserved:
      if (q != nullptr) {
        q->victims.erase(key);
        if (q->victims.empty()) reset_cursor(*q);
      }
      break;
    case DecisionKind::kQueueNotFound:
      u.queue_not_found_reported = true;
      break;
    case DecisionKind::kInvalidQuantities:
      // Not the decision's reason: the fold reads rounds without their texts (read_round_kept).
      // The round follows its basis directly, so the unit's text is the one decided on.
      u.invalid_reported = u.invalid_quantities;
      break;
    case DecisionKind::kDeactivated:
      u.deactivation_due = false;
      break;
    case DecisionKind::kMaxExecExceeded:
      u.max_exec_reported = true;
      break;
    case DecisionKind::kPhaseEvent:
      u.phase_event_due.reset();
      break;
    case DecisionKind::kAdmissionChecksReady:
      if (!u.dequeued_once) metrics_.e2e_latency.observe(now_ - u.object.metadata.creation_timestamp.value_or(now_));
      u.dequeued_once = true;
      break;
    default:
      break;
  }
  if (q != nullptr) retime_queue(*q, ref.queue);  // stirs it: the attempt changed it
  refresh_unit(u, key, false);
}

void Scheduler::apply_attempt(UnitState& u, const std::string& key, const Decision& d, QueueState* q,
                              Phase phase_before, int64_t enqueued_at) {
  const std::string& queue = std::get<UnitRef>(d.target).queue;
  u.failures = 0;
  wake_backoff(u);
  settle_capacity_change(u, false);
  // §15.2: the attempt, the admission wait (admissions from Enqueued only, not top-ups),
  // the end-to-end latency of the first Dequeued koordq writes for the UID.
  ++metrics_.attempts[{queue, "scheduled"}];
  if (phase_before == Phase::kEnqueued && d.status_patch && d.status_patch->phase) {
    auto [h, added] = metrics_.admission_wait.try_emplace(queue);
    if (added) h->second = QueueingMetrics::admission_wait_histogram();
    h->second.observe(now_ - enqueued_at);
  }
  if (d.status_patch && d.status_patch->phase && *d.status_patch->phase == "Dequeued") {
    if (!u.dequeued_once) metrics_.e2e_latency.observe(now_ - u.object.metadata.creation_timestamp.value_or(now_));
    u.dequeued_once = true;
  }
  if (q != nullptr) {
    q->last_attempt = now_;
    q->last_tried = key;
    q->last_activity = now_;
    if (q->settings.policy == QueuePolicy::kPriority) {
      q->cursor = u.key;
    } else {
      q->cursor.reset();
    }
    if (auto b = q->blocked.find(u.quota); b != q->blocked.end() && b->second == key) q->blocked.erase(b);
  }
}

void Scheduler::apply_failed_attempt(UnitState& u, const std::string& key, const Decision& d, QueueState* q) {
  ++metrics_.attempts[{std::get<UnitRef>(d.target).queue, "unschedulable"}];
  ++u.failures;
  back_off(u, now_ + backoff_nanos(config_, u.failures));
  settle_capacity_change(u, false);
  if (q != nullptr) {
    q->last_attempt = now_;
    q->last_tried = key;
    q->last_activity = now_;
    if (q->settings.policy == QueuePolicy::kPriority) {
      if (d.victims.empty()) {
        q->cursor = u.key;
      } else {
        reset_cursor(*q);
      }
    } else {
      q->cursor.reset();
      if (d.victims.empty()) q->blocked[u.quota] = key;
    }
  }
}

}  // namespace koordq::actors
