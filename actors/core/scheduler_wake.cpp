// Scheduler: the round index. A round visits only the queues it may decide something for now;
// every other queue is asleep until an input reaches it or its recheck time passes. A queue
// sleeps when a visit would decide nothing: no Queue event or unit housekeeping pending, no unit
// an attempt could try now (all waiting units backing off, none waiting, the suspend time or a
// Block retry wait not over), no queue-items publication due, no usage annotation due that
// differs from the Queue's. Which queues are awake changes only with the state (an input stirs
// the queues it reaches) or with the time (the recheck: the next backoff end, suspend end,
// publication or usage time, exactly the times next_deadline() reports).
#include "actors/core/policy_periods.hpp"
#include "actors/core/scheduler.hpp"

namespace koordq::actors {
namespace {

const std::set<std::string> kNoneDecided;

}  // namespace

// Eligible units of the queue in order (§6.2): active, inside the window, not yet decided.
// The unit the queue's policy tries next (§6.3, §6.4), among the first max_depth waiting units
// that are active and undecided this round; the scan stops at the first that qualifies.
const UnitState* Scheduler::round_candidate(const QueueState& q, const std::set<std::string>& decided) const {
  const auto first_eligible = [&](std::set<OrderKey>::const_iterator from,
                                  std::set<OrderKey>::const_iterator to) -> const UnitState* {
    for (; from != to; ++from) {
      const UnitState& u = units_.at(from->full_name);
      if (is_active(u) && !decided.count(from->full_name)) return &u;
    }
    return nullptr;
  };
  if (q.settings.policy == QueuePolicy::kPriority && q.settings.max_depth < 0 && q.cursor) {
    // An unlimited window: the first eligible unit after the cursor, else the first from the
    // head, without looking up the units before the cursor again and again.
    const auto after = q.waiting.upper_bound(*q.cursor);
    if (const UnitState* u = first_eligible(after, q.waiting.end())) return u;
    return first_eligible(q.waiting.begin(), after);
  }
  const UnitState* head = nullptr;  // Priority: where the cursor wraps to (§6.3 step 2)
  int64_t rank = 0;
  for (const auto& key : q.waiting) {
    if (q.settings.max_depth >= 0 && rank >= q.settings.max_depth) break;
    ++rank;
    const UnitState& u = units_.at(key.full_name);
    if (!is_active(u) || decided.count(key.full_name)) continue;
    if (q.settings.policy == QueuePolicy::kPriority) {
      if (!q.cursor || *q.cursor < key) return &u;
      if (head == nullptr) head = &u;
      continue;
    }
    const auto b = q.blocked.find(u.quota);
    if (b == q.blocked.end() || b->second == key.full_name) return &u;
  }
  return head;
}

// A state that notes its changes (note_changes) notes here the queues the round index rechecks
// too, from const members: only the thread that applies may call round_trees, decide or
// next_deadline on such a state (the read side calls none of them).
void Scheduler::stir(const QueueState& q) const {
  if (changes_ != nullptr) changes_->queues.insert(q.object.metadata.name);
  if (q.stirred) return;
  q.stirred = true;
  stirred_.push_back(&q);
}

void Scheduler::stir_queue(const std::string& name) {
  if (const auto it = queues_.find(name); it != queues_.end()) stir(it->second);
}

void Scheduler::stir_usage_path(const std::string& label) {
  if (label.empty()) return;
  if (!quotas_.known(label)) return stir_queue(label);
  for (const auto& name : quotas_.path_of(label)) stir_queue(name);
}

Scheduler::QueueWake Scheduler::queue_wake(const std::string& name, const QueueState& q) const {
  QueueWake w;
  const auto later = [&](int64_t t) {
    if (t > now_ && (!w.next || t < *w.next)) w.next = t;
  };
  const auto& meta = q.object.metadata;
  if (q.settings.policy == QueuePolicy::kUnsupported &&
      !q.add_queue_fail_reported.count(meta.uid + "/" + q.settings.policy_text)) {
    w.awake = true;
  }
  if (q.settings.invalid_refresh_interval && !q.invalid_interval_reported.count(*q.settings.invalid_refresh_interval)) {
    w.awake = true;
  }
  if (!q.housekeeping.empty() || !q.victims.empty()) w.awake = true;
  if (q.settings.policy != QueuePolicy::kUnsupported) {
    // The times an attempt could become possible: a candidate the next attempt could take is
    // active, inside the window and, under Block, not behind another unit's block. Units that
    // cannot be tried set no time.
    const std::string* candidate = nullptr;
    const auto may_be_tried = [&](const OrderKey& key, const UnitState& u) {
      const auto b = q.blocked.find(u.quota);
      return !(q.settings.policy == QueuePolicy::kBlock && b != q.blocked.end() && b->second != key.full_name);
    };
    if (q.settings.max_depth >= 0) {
      // A window of max_depth units: the backoff ends inside it only. The index is not read here,
      // only kept short (its entries would otherwise pile up with every backoff).
      (void)earliest_backoff_end(q);
      int64_t rank = 0;
      for (const auto& key : q.waiting) {
        if (rank >= q.settings.max_depth) break;
        ++rank;
        const UnitState& u = units_.at(key.full_name);
        if (u.backoff_until && *u.backoff_until > now_) {
          later(*u.backoff_until);
          continue;
        }
        if (candidate == nullptr && may_be_tried(key, u)) candidate = &key.full_name;
      }
    } else {
      // Every waiting unit is in the window: the earliest backoff end from the index, and the walk
      // stops at the first unit that may be tried (usually the head).
      if (const auto end = earliest_backoff_end(q)) later(*end);
      for (const auto& key : q.waiting) {
        const UnitState& u = units_.at(key.full_name);
        if (u.backoff_until && *u.backoff_until > now_) continue;
        if (may_be_tried(key, u)) {
          candidate = &key.full_name;
          break;
        }
      }
    }
    if (candidate != nullptr && q.last_attempt) {
      later(*q.last_attempt + config_.schedule_suspend_nanos);
      if (q.settings.policy == QueuePolicy::kBlock && *candidate == q.last_tried) {
        later(*q.last_attempt + kBlockRetryWait);
      }
    }
    if (!q.blocked.empty()) later(q.last_activity + kThreeMinutes);
    // An attempt now (RoundBuilder::attempt's conditions with nothing decided yet).
    if (!(q.last_attempt && now_ < *q.last_attempt + config_.schedule_suspend_nanos)) {
      const UnitState* c = round_candidate(q, kNoneDecided);
      if (c != nullptr &&
          !(q.settings.policy == QueuePolicy::kBlock && c->key.full_name == q.last_tried && q.last_attempt &&
            now_ < *q.last_attempt + kBlockRetryWait && !c->capacity_changed_since_attempt())) {
        w.awake = true;
      }
    }
  }
  if (q.settings.show_queue_items && q.next_publish) {
    later(*q.next_publish);
    if (now_ >= *q.next_publish) w.awake = true;
  }
  if (manages_queue(name) && usage_annotations(name) != usage_on_queue(q)) {
    if (now_ >= q.usage_next) {
      w.awake = true;
    } else {
      later(q.usage_next);
    }
  }
  return w;
}

std::optional<int64_t> Scheduler::earliest_backoff_end(const QueueState& q) const {
  auto& ends = q.backoff_ends;
  while (!ends.empty()) {
    const auto& [end, key] = *ends.begin();
    if (end > now_) {
      const auto it = units_.find(key);
      if (it != units_.end() && it->second.backoff_until == end && it->second.queue == &q && it->second.waiting &&
          q.waiting.count(it->second.key) != 0) {
        return end;
      }
    }
    ends.erase(ends.begin());  // past (time only moves on), or no longer true: a new entry is made if it is again
  }
  return std::nullopt;
}

void Scheduler::rewake(const std::string& name, const QueueState& q) const {
  if (q.recheck) rechecks_.erase({*q.recheck, name});
  const QueueWake w = queue_wake(name, q);
  q.recheck = w.next;
  if (w.next) rechecks_.emplace(*w.next, name);
  q.awake = w.awake;
  if (w.awake) {
    awake_.insert(name);
  } else {
    awake_.erase(name);
  }
}

void Scheduler::settle_rounds() const {
  // A stirred queue is named by its object; one that is not its map entry's (a state put
  // together by hand) makes the index start over.
  for (const QueueState* q : stirred_) {
    if (stir_all_) break;
    const auto it = queues_.find(q->object.metadata.name);
    if (it == queues_.end() || &it->second != q) stir_all_ = true;
  }
  if (stir_all_) {
    stir_all_ = false;
    stirred_.clear();
    awake_.clear();
    rechecks_.clear();
    for (const auto& [name, q] : queues_) {
      q.stirred = false;
      q.recheck.reset();
      rewake(name, q);
    }
    return;
  }
  while (!rechecks_.empty() && rechecks_.begin()->first <= now_) {
    const auto it = queues_.find(rechecks_.begin()->second);
    rechecks_.erase(rechecks_.begin());
    if (it == queues_.end()) continue;
    it->second.recheck.reset();
    stir(it->second);
  }
  for (const QueueState* q : stirred_) {
    q->stirred = false;
    rewake(q->object.metadata.name, *q);
  }
  stirred_.clear();
}

const std::set<std::string>& Scheduler::awake_queues() const {
  settle_rounds();
  return awake_;
}

}  // namespace koordq::actors
