// Scheduler: one decide round (design.md §3; behaviour.md §4–§14). Reads the state, changes
// nothing: every effect is in the returned decisions, which take effect when applied.
#include <algorithm>
#include <iterator>

#include "actors/core/policy_periods.hpp"
#include "actors/core/scheduler.hpp"
#include "actors/core/status_change.hpp"
#include "base/time_units.hpp"

namespace koordq::actors {
namespace {

using base::kSecond;

schema::QueueUnit effective_object(const UnitState& u) {
  schema::QueueUnit eff = u.object;
  eff.status = u.status();
  if (!u.pending_written_rv.empty()) eff.metadata.resource_version = u.pending_written_rv;
  return eff;
}

UnitRef ref_of(const UnitState& u, const std::string& queue) {
  return {u.object.metadata.namespace_, u.object.metadata.name, u.object.metadata.uid, u.quota, queue};
}

KubeEvent event(ObjectRef on, bool warning, std::string reason, std::string message) {
  return {std::move(on), warning, std::move(reason), std::move(message)};
}

// §7.6: the write queue keeps one pending write per unit, the latest. While an earlier write of
// the unit is still in flight (its status not landed), a newer patch replaces it there, so the
// newer one carries every key that status changed since the last landed one.
StatusPatch carry_unlanded(const UnitState& u, StatusPatch p) {
  if (!u.pending_status || !u.pending_written_rv.empty()) return p;
  const schema::QueueUnitStatus& base = u.landed_status ? *u.landed_status : u.object.status;
  const schema::QueueUnitStatus& cur = *u.pending_status;
  if (!p.phase && cur.phase != base.phase) p.phase = cur.phase;
  if (!p.message && cur.message != base.message) p.message = cur.message;
  if (!p.attempts && cur.attempts != base.attempts) p.attempts = cur.attempts;
  if (!p.last_update_time && cur.last_update_time && cur.last_update_time != base.last_update_time) {
    p.last_update_time = cur.last_update_time;
  }
  if (!p.last_allocate_time && cur.last_allocate_time && cur.last_allocate_time != base.last_allocate_time) {
    p.last_allocate_time = cur.last_allocate_time;
  }
  if (!p.admissions && cur.admissions != base.admissions) p.admissions = cur.admissions;
  if (!p.admission_checks && cur.admission_checks != base.admission_checks) p.admission_checks = cur.admission_checks;
  return p;
}

bool covers(const schema::ResourceVector& have, const schema::ResourceVector& need) {
  for (const auto& [r, v] : need) {
    const auto it = have.find(r);
    if (it == have.end() || it->second < v) return false;
  }
  return true;
}

}  // namespace

class RoundBuilder {
 public:
  RoundBuilder(const Scheduler& s, TreeRound& scratch, std::vector<Decision>& out,
               QuotaCheckObserver* observer = nullptr)
      : s_(s), out_(out), scratch_(scratch), observer_(observer) {}

  void queue(const QueueState& q) {
    queue_events(q);
    // The members in key order that may have housekeeping: those flagged, and the victims.
    auto h = q.housekeeping.begin();
    auto v = q.victims.begin();
    while (h != q.housekeeping.end() || v != q.victims.end()) {
      const std::string* key = nullptr;
      if (v == q.victims.end() || (h != q.housekeeping.end() && *h <= v->first)) {
        key = &*h;
        if (v != q.victims.end() && v->first == *h) ++v;
        ++h;
      } else {
        key = &v->first;
        ++v;
        if (!q.members.count(*key)) continue;
      }
      unit_housekeeping(q, s_.units().at(*key));
    }
    attempt(q);
    publish(q);
    usage(q);
  }

  // §2.5: create, patch or delete the Queue of each quota, one write in flight per name.
  void auto_queues() {
    const std::string& ns = s_.config().queue_namespace;
    for (const auto& [name, path] : s_.quotas().paths()) {
      const auto a = s_.auto_queues().find(name);
      const AutoQueue* aq = a == s_.auto_queues().end() ? nullptr : &a->second;
      if (aq != nullptr && aq->in_flight) continue;
      const QuotaInfo& quota = *s_.quotas().find(name);
      const bool has_queue = s_.queues().count(name) > 0;
      // Most rounds: the Queue is there with the quota's items.
      if (has_queue && (aq == nullptr || !aq->synced || Scheduler::has_queue_items(quota, *aq->synced))) continue;
      const QueueItems items = Scheduler::queue_items_of(quota);
      Decision d;
      d.target = QueueRef{name};
      if (!has_queue) {
        if (aq != nullptr && aq->synced) continue;  // created, not yet seen
        schema::Queue q;
        q.metadata.name = name;
        q.metadata.namespace_ = ns;
        if (items.parent) q.metadata.labels[kParentLabel] = *items.parent;
        if (items.enable) q.metadata.annotations[kEnableAnnotation] = *items.enable;
        q.spec.queue_policy = items.queue_policy;
        q.spec.priority = 1000;
        d.kind = DecisionKind::kQueueCreate;
        d.reason = "ElasticQuota " + name + " has no Queue";
        d.queue_write = std::move(q);
      } else {
        if (aq == nullptr || !aq->synced || *aq->synced == items) continue;
        QueuePatch p;
        if (items.queue_policy != aq->synced->queue_policy) p.queue_policy = items.queue_policy;
        if (items.parent != aq->synced->parent) p.labels[kParentLabel] = items.parent;
        if (items.enable != aq->synced->enable) p.annotations[kEnableAnnotation] = items.enable;
        d.kind = DecisionKind::kQueuePatch;
        d.reason = "ElasticQuota " + name + " changed";
        d.queue_write = std::move(p);
      }
      out_.push_back(std::move(d));
    }
    for (const auto& [name, aq] : s_.auto_queues()) {
      if (aq.in_flight || s_.quotas().known(name) || !s_.queues().count(name)) continue;
      Decision d;
      d.target = QueueRef{name};
      d.kind = DecisionKind::kQueueDelete;
      d.reason = "ElasticQuota " + name + " was deleted";
      d.queue_write = QueueDelete{};
      out_.push_back(std::move(d));
    }
  }

  void unmapped_units() {
    for (const auto& key : s_.unmapped_pending()) {
      const UnitState& u = s_.units().at(key);
      if (s_.now() < *u.unmapped_since + kQueueNotFoundGrace) continue;
      const std::string text = "queue " + u.quota + " does not exist";
      Decision d;
      d.target = ref_of(u, "");
      d.kind = DecisionKind::kQueueNotFound;
      d.reason = text;
      d.status_patch = message_patch(effective_object(u), text, s_.now());
      d.events.push_back(event(object_ref_of(u.object), true, "QueueNotFound", text));
      emit(u, std::move(d));
    }
  }

 private:
  void queue_events(const QueueState& q) {
    const auto& meta = q.object.metadata;
    if (q.settings.policy == QueuePolicy::kUnsupported &&
        !q.add_queue_fail_reported.count(meta.uid + "/" + q.settings.policy_text)) {
      const std::string text = "unsupported queue policy " + q.settings.policy_text;
      Decision d;
      d.target = QueueRef{meta.name};
      d.kind = DecisionKind::kAddQueueFail;
      d.reason = text;
      d.events.push_back(event(object_ref_of(q.object), true, "AddQueueFail", text));
      out_.push_back(std::move(d));
    }
    if (q.settings.invalid_refresh_interval &&
        !q.invalid_interval_reported.count(*q.settings.invalid_refresh_interval)) {
      const std::string text = "invalid koord-queue/queue-items-refresh-interval \"" +
                               *q.settings.invalid_refresh_interval + "\", using " +
                               base::format_go_duration(q.settings.refresh_interval_nanos);
      Decision d;
      d.target = QueueRef{meta.name};
      d.kind = DecisionKind::kInvalidRefreshInterval;
      d.reason = *q.settings.invalid_refresh_interval;
      d.events.push_back(event(object_ref_of(q.object), true, "InvalidRefreshInterval", text));
      out_.push_back(std::move(d));
    }
  }

  void unit_housekeeping(const QueueState& q, const UnitState& u) {
    // Most members have nothing due: the effective object is only built for one that has.
    std::optional<schema::QueueUnit> eff_cache;
    auto eff = [&]() -> const schema::QueueUnit& {
      if (!eff_cache) eff_cache = effective_object(u);
      return *eff_cache;
    };
    const std::string& queue = q.object.metadata.name;
    if (u.deactivation_due) {
      Decision d;
      d.target = ref_of(u, queue);
      d.kind = DecisionKind::kDeactivated;
      d.reason = kMessageDeactivated;
      d.status_patch = message_patch(eff(), kMessageDeactivated, s_.now());
      d.events.push_back(event(consumer_ref_of(eff()), false, "Deactivated", kMessageDeactivated));
      emit(u, std::move(d));
    }
    const auto limit = u.object.spec.maximum_execution_time_seconds.value_or(0);
    if (limit > 0 && u.running_since && !u.max_exec_reported && s_.now() >= *u.running_since + limit * kSecond) {
      Decision d;
      d.target = ref_of(u, queue);
      d.kind = DecisionKind::kMaxExecExceeded;
      d.reason = kMessageMaxExec;
      d.status_patch = message_patch(eff(), kMessageMaxExec, s_.now());
      d.events.push_back(event(consumer_ref_of(eff()), true, "MaximumExecutionTimeExceeded",
                               "The maximum execution time (" + std::to_string(limit) + "s) was exceeded"));
      emit(u, std::move(d));
    }
    if (u.phase_event_due) {
      Decision d;
      d.target = ref_of(u, queue);
      d.kind = DecisionKind::kPhaseEvent;
      if (*u.phase_event_due == Phase::kSchedSucceed) {
        d.reason = "QueueUnit has been scheduled";
        d.events.push_back(event(object_ref_of(eff()), false, "Scheduled", d.reason));
      } else {
        d.reason = eff().status.message;
        d.events.push_back(event(object_ref_of(eff()), false, "FailedScheduling", d.reason));
      }
      out_.push_back(std::move(d));
    }
    if (auto v = q.victims.find(s_units_key(u)); v != q.victims.end() && !reclaim_requested(eff())) {
      Decision d;
      d.target = ref_of(u, queue);
      d.kind = DecisionKind::kReclaimObserved;
      d.reason = "Reclaimed " + std::to_string(v->second) + " replicas in queue " + queue;
      d.events.push_back(event(object_ref_of(eff()), false, "Reclaimed", d.reason));
      out_.push_back(std::move(d));
    }
    if (u.phase == Phase::kReserved && !u.pending_status) admission_checks(q, u, eff());
    if (pending_invalid_report(u)) {
      const std::string text = "invalid resource quantity, not admitted until fixed: " + u.invalid_quantities;
      Decision d;
      d.target = ref_of(u, queue);
      d.kind = DecisionKind::kInvalidQuantities;
      d.reason = u.invalid_quantities;
      d.status_patch = message_patch(eff(), text, s_.now());
      d.events.push_back(event(object_ref_of(eff()), true, "InvalidQuantity", text));
      emit(u, std::move(d));
    }
    if (owes_spec_queue(u)) {
      Decision d;
      d.target = ref_of(u, queue);
      d.kind = DecisionKind::kSpecQueueRepair;
      d.reason = "spec.queue of the admitted unit is \"" + u.object.spec.queue + "\", not its queue " + queue;
      d.spec_queue_patch = queue;
      scratch_.spec_queue_repaired.insert(u.key.full_name);
      out_.push_back(std::move(d));
    }
  }

  static std::string s_units_key(const UnitState& u) { return u.key.full_name; }

  // Every unit decision leaves through here: its status patch carries what is still unlanded.
  void emit(const UnitState& u, Decision d) {
    if (d.status_patch) d.status_patch = carry_unlanded(u, std::move(*d.status_patch));
    out_.push_back(std::move(d));
  }

  // §10 for a Reserved unit: its list follows the Queue's checks (newly applicable ones appended
  // Pending, no longer applicable ones Ready with the removal message), then the verdict.
  void admission_checks(const QueueState& q, const UnitState& u, const schema::QueueUnit& eff) {
    const auto checks = applicable_checks(q.object, eff);
    std::vector<schema::AdmissionCheckState> states = eff.status.admission_checks;
    bool list_changed = false;
    for (const auto& name : checks) {
      if (std::any_of(states.begin(), states.end(), [&](const auto& c) { return c.name == name; })) continue;
      schema::AdmissionCheckState c;
      c.name = name;
      c.state = "Pending";
      c.last_transition_time = s_.now();
      c.pod_set_updates_json = "[]";
      states.push_back(std::move(c));
      list_changed = true;
    }
    for (auto& c : states) {
      if (std::find(checks.begin(), checks.end(), c.name) != checks.end()) continue;
      if (c.state == "Ready" && c.message == kMessageCheckRemoved) continue;
      c.state = "Ready";
      c.message = kMessageCheckRemoved;
      list_changed = true;
    }
    bool all_ready = true, failed = false;
    for (const auto& name : checks) {
      const auto it = std::find_if(states.begin(), states.end(), [&](const auto& c) { return c.name == name; });
      const std::string state = it == states.end() ? "" : it->state;
      if (state == "Rejected" || state == "Retry") failed = true;
      if (state != "Ready") all_ready = false;
    }
    if (!failed && !all_ready && !list_changed) return;
    Decision d;
    d.target = ref_of(u, q.object.metadata.name);
    StatusPatch p;
    p.resource_version = eff.metadata.resource_version;
    p.last_update_time = s_.now();
    if (list_changed) p.admission_checks = std::move(states);
    if (failed) {
      d.kind = DecisionKind::kAdmissionCheckFailed;
      p.phase = "TimeoutBackoff";
      p.message = kMessageCheckFailed;
      p.admissions = std::vector<schema::Admission>{};
      d.reason = *p.message;
    } else if (all_ready) {
      d.kind = DecisionKind::kAdmissionChecksReady;
      p.phase = "Dequeued";
      p.message = kMessageChecksReady;
      d.events.push_back(event(object_ref_of(eff), false, "Scheduled", "dequeue success"));
      d.reason = *p.message;
    } else {
      d.kind = DecisionKind::kAdmissionChecksUpdated;
      d.reason = "admission checks follow queue " + q.object.metadata.name;
    }
    d.status_patch = std::move(p);
    emit(u, std::move(d));
  }

  // Assumed units of the queue other than `except` (§7.4), in queue order.
  std::vector<const UnitState*> assumed(const QueueState& q, const std::string& except) const {
    std::vector<const UnitState*> out;
    for (const auto& key : q.members) {
      const UnitState& u = s_.units().at(key);
      if (u.assumed && key != except) out.push_back(&u);
    }
    std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->key < b->key; });
    return out;
  }

  static int64_t reclaimable(const schema::Admission& a) {
    const int64_t marked = a.reclaim_state ? a.reclaim_state->replicas : 0;
    return std::max<int64_t>(a.replicas - a.running - marked, 0);
  }

  // §11 candidates: assumed units sorting after P with something to reclaim, outside protection.
  std::vector<const UnitState*> preemption_candidates(const QueueState& q, const UnitState& p) const {
    std::vector<const UnitState*> out;
    for (const auto* u : assumed(q, p.key.full_name)) {
      if (!(p.key < u->key)) continue;
      const auto& st = u->status();
      const int64_t protect = s_.config().reclaim_protect_nanos;
      if (protect > 0 && st.last_allocate_time && s_.now() < *st.last_allocate_time + protect) continue;
      if (std::none_of(st.admissions.begin(), st.admissions.end(), [](const auto& a) { return reclaimable(a) > 0; })) {
        continue;
      }
      out.push_back(u);
    }
    return out;
  }

  // Trigger A: from the lowest candidate up until their reclaimable amounts cover R(P).
  std::vector<const UnitState*> select_to_cover(const std::vector<const UnitState*>& candidates,
                                                const schema::ResourceVector& request) const {
    if (request.empty()) return {};
    std::vector<const UnitState*> chosen;
    schema::ResourceVector sum;
    for (auto it = candidates.rbegin(); it != candidates.rend(); ++it) {
      const schema::QueueUnit eff = effective_object(**it);
      for (const auto& d : pod_set_demands(eff)) {
        for (const auto& a : eff.status.admissions) {
          if (a.name == d.name) schema::add_to(sum, schema::scaled(d.per_replica, reclaimable(a)));
        }
      }
      chosen.push_back(*it);
      if (covers(sum, request)) return chosen;
    }
    return {};
  }

  Decision mark_victim(const UnitState& v, const UnitState& p, const std::string& queue, int64_t& marked) const {
    const schema::QueueUnit eff = effective_object(v);
    StatusPatch patch = message_patch(eff, kMessageReclaim, s_.now());
    patch = carry_unlanded(v, std::move(patch));
    std::vector<schema::Admission> admissions = eff.status.admissions;
    marked = 0;
    for (auto& a : admissions) {
      const int64_t r = reclaimable(a);
      if (r <= 0) continue;
      if (!a.reclaim_state) a.reclaim_state = schema::ReclaimState{};
      a.reclaim_state->replicas += r;
      marked += r;
    }
    patch.admissions = std::move(admissions);
    Decision d;
    d.target = ref_of(v, queue);
    d.kind = DecisionKind::kPreempt;
    d.reason = "Preempted by " + p.object.metadata.namespace_ + "/" + p.object.metadata.name + " in queue " + queue;
    d.status_patch = std::move(patch);
    d.events.push_back(event(object_ref_of(eff), true, "Preempted", d.reason));
    d.victims.push_back({ref_of(v, queue), marked});
    return d;
  }

  void attempt(const QueueState& q) {
    if (q.settings.policy == QueuePolicy::kUnsupported) return;
    if (q.last_attempt && s_.now() < *q.last_attempt + s_.config().schedule_suspend_nanos) return;
    const UnitState* c = s_.round_candidate(q, scratch_.decided);
    if (c == nullptr) return;
    if (q.settings.policy == QueuePolicy::kBlock && c->key.full_name == q.last_tried && q.last_attempt &&
        s_.now() < *q.last_attempt + kBlockRetryWait && !c->capacity_changed_since_attempt()) {
      return;
    }
    const UnitState& u = *c;
    const std::string& queue = q.object.metadata.name;
    schema::QueueUnit eff = effective_object(u);
    const schema::ResourceVector request = request_of(eff);
    const std::string& item = u.key.full_name;
    if (observer_ != nullptr) observer_->before_check();
    QuotaCheckResult check =
        s_.quotas().check(item, u.quota, request, s_.config().oversell_rate_ppm, &scratch_.tentative);
    if (observer_ != nullptr) observer_->after_check();
    scratch_.decided.insert(item);
    const int64_t attempts = u.attempts + 1;

    std::string failure;
    std::vector<Decision> victims;
    const bool preemption = q.settings.preemption_enabled;
    auto mark_all = [&](const std::vector<const UnitState*>& chosen) {
      for (const auto* v : chosen) {
        int64_t marked = 0;
        victims.push_back(mark_victim(*v, u, queue, marked));
        scratch_.decided.insert(v->key.full_name);
      }
    };
    if (check.passed) {
      const auto others = q.settings.wait_for_pods_running ? assumed(q, item) : std::vector<const UnitState*>{};
      if (!others.empty()) {
        if (preemption && !q.victims.empty()) {
          failure = "queue " + queue + " is preempting, not allowed to preempt again";
        } else if (preemption) {
          const auto chosen = preemption_candidates(q, u);
          if (chosen.empty()) {
            failure = "no more queueUnit allowed to schedule in this queue";
          } else {
            std::string names;
            for (const auto* v : chosen) names += (names.empty() ? "" : ",") + v->key.full_name;
            failure = "preemption: waiting for queueUnit preempted, victims: [" + names + "]";
            mark_all(chosen);
          }
        } else {
          failure = "no more queueUnit allowed to schedule in this queue";
        }
      }
    } else {
      failure = check.failure;
      if (preemption) {
        const auto chosen =
            q.victims.empty() ? select_to_cover(preemption_candidates(q, u), request) : std::vector<const UnitState*>{};
        failure += chosen.empty() ? "; preempt failed" : "; preempt succeed";
        mark_all(chosen);
      }
    }

    Decision d;
    d.target = ref_of(u, queue);
    d.quota_check = std::move(check.steps);
    if (failure.empty()) {
      StatusPatch patch = admission_patch(eff, q.object, attempts, s_.now());
      d.kind = patch.phase && *patch.phase == "Reserved" ? DecisionKind::kReserve : DecisionKind::kAdmit;
      d.reason = *patch.message;
      const std::string resulting_phase = patch.phase ? *patch.phase : eff.status.phase;
      if (resulting_phase == "Dequeued") {
        d.events.push_back(event(object_ref_of(eff), false, "Scheduled", "dequeue success"));
      }
      if (eff.spec.queue != queue && !scratch_.spec_queue_repaired.count(item)) d.spec_queue_patch = queue;
      // Later queues of the tree see this reservation (§7.1). `eff` becomes the unit after it.
      eff.status = merged(eff.status, patch);
      schema::ResourceVector delta = charge_of(eff);
      if (u.holds) schema::subtract_from(delta, u.charge);
      schema::add_to(scratch_.tentative[u.quota], delta);
      scratch_.admitted.insert(item);
      d.status_patch = std::move(patch);
    } else {
      d.kind = DecisionKind::kFail;
      d.reason = failure;
      StatusPatch patch = message_patch(eff, failure, s_.now());
      patch.attempts = attempts;
      d.status_patch = std::move(patch);
      d.events.push_back(event(object_ref_of(eff), true, "FailedScheduling", failure));
      for (const auto& v : victims) d.victims.push_back(v.victims.front());
    }
    emit(u, std::move(d));
    for (auto& v : victims) out_.push_back(std::move(v));
  }

  void publish(const QueueState& q) {
    if (!q.settings.show_queue_items || !q.next_publish || s_.now() < *q.next_publish) return;
    schema::QueueItemDetails details = queue_item_details(s_, q, &scratch_.admitted);
    const auto& current = q.last_published ? q.last_published : q.object.status.queue_item_details;
    if (current && *current == details) return;
    Decision d;
    d.target = QueueRef{q.object.metadata.name};
    d.kind = DecisionKind::kPublishQueueItems;
    d.queue_write = std::move(details);
    out_.push_back(std::move(d));
  }

  // §14.3: at most once per second, and only when a value changed.
  void usage(const QueueState& q) {
    const std::string& name = q.object.metadata.name;
    if (!s_.manages_queue(name) || s_.now() < q.usage_next) return;
    UsageAnnotations values = s_.usage_annotations(name);
    if (values == usage_on_queue(q)) return;
    Decision d;
    d.target = QueueRef{name};
    d.kind = DecisionKind::kQueueUsageAnnotations;
    d.queue_write = std::move(values);
    out_.push_back(std::move(d));
  }

  static constexpr char kParentLabel[] = "quota.scheduling.koordinator.sh/parent";
  static constexpr char kEnableAnnotation[] = "quota-koord-queue-enable";

  const Scheduler& s_;
  std::vector<Decision>& out_;
  TreeRound& scratch_;
  QuotaCheckObserver* observer_;
};

std::map<std::string, std::vector<std::string>> Scheduler::round_trees() const {
  std::map<std::string, std::vector<std::string>> trees;
  for (const auto& name : awake_queues()) trees[quotas_.tree_of(name)].push_back(name);
  return trees;
}

void Scheduler::decide_queue(const std::string& queue, TreeRound& round, std::vector<Decision>& out,
                             QuotaCheckObserver* observer) const {
  const auto it = queues_.find(queue);
  if (it == queues_.end()) return;
  RoundBuilder(*this, round, out, observer).queue(it->second);
}

std::vector<Decision> Scheduler::decide_tree(const std::vector<std::string>& queues) const {
  std::vector<Decision> out;
  TreeRound round;
  for (const auto& name : queues) decide_queue(name, round, out);
  return out;
}

std::vector<Decision> Scheduler::decide_unmapped() const {
  std::vector<Decision> out;
  TreeRound round;
  RoundBuilder builder(*this, round, out);
  // §2.5 reads only quotas, Queues and the auto-queue entries, never the time: a pass that
  // decided nothing decides nothing again until one of those changes.
  if (!auto_queues_quiet_) {
    builder.auto_queues();
    auto_queues_quiet_ = out.empty();
  }
  builder.unmapped_units();
  return out;
}

std::vector<Decision> Scheduler::decide() const {
  std::vector<Decision> out;
  for (const auto& [tree, queues] : round_trees()) {
    auto part = decide_tree(queues);
    out.insert(out.end(), std::make_move_iterator(part.begin()), std::make_move_iterator(part.end()));
  }
  auto unmapped = decide_unmapped();
  out.insert(out.end(), std::make_move_iterator(unmapped.begin()), std::make_move_iterator(unmapped.end()));
  return out;
}

}  // namespace koordq::actors
