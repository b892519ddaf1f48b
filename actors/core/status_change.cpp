#include "actors/core/status_change.hpp"

#include <algorithm>
#include <utility>

#include "actors/core/unit_facts.hpp"

namespace koordq::actors {

namespace {

// With kTake, the patch's message and lists are moved out of it; everything else is copied.
template <bool kTake, class Patch>
schema::QueueUnitStatus merge(const schema::QueueUnitStatus& status, Patch& patch) {
  const auto pass = [](auto& value) -> decltype(auto) {
    if constexpr (kTake) {
      return std::move(value);
    } else {
      return std::as_const(value);
    }
  };
  schema::QueueUnitStatus out = status;
  if (patch.phase) out.phase = *patch.phase;
  if (patch.message) out.message = pass(*patch.message);
  if (patch.attempts) out.attempts = *patch.attempts;
  if (patch.last_update_time) out.last_update_time = *patch.last_update_time;
  if (patch.last_allocate_time) out.last_allocate_time = *patch.last_allocate_time;
  if (patch.admissions) out.admissions = pass(*patch.admissions);
  if (patch.admission_checks) out.admission_checks = pass(*patch.admission_checks);
  return out;
}

}  // namespace

schema::QueueUnitStatus merged(const schema::QueueUnitStatus& status, const StatusPatch& patch) {
  return merge<false>(status, patch);
}

schema::QueueUnitStatus merged_taking_lists(const schema::QueueUnitStatus& status, StatusPatch& patch) {
  return merge<true>(status, patch);
}

bool selector_matches(const schema::LabelSelector& selector, const schema::StringMap& labels) {
  for (const auto& [k, v] : selector.match_labels) {
    const auto it = labels.find(k);
    if (it == labels.end() || it->second != v) return false;
  }
  for (const auto& e : selector.match_expressions) {
    const auto it = labels.find(e.key);
    const bool has = it != labels.end();
    const bool in = has && std::find(e.values.begin(), e.values.end(), it->second) != e.values.end();
    if (e.operator_ == "In" && !in) return false;
    if (e.operator_ == "NotIn" && in) return false;
    if (e.operator_ == "Exists" && !has) return false;
    if (e.operator_ == "DoesNotExist" && has) return false;
  }
  return true;
}

std::vector<std::string> applicable_checks(const schema::Queue& queue, const schema::QueueUnit& unit) {
  std::vector<std::string> out;
  for (const auto& check : queue.spec.admission_checks) {
    if (!check.label_selector || selector_matches(*check.label_selector, unit.metadata.labels)) {
      out.push_back(check.name);
    }
  }
  return out;
}

StatusPatch admission_patch(const schema::QueueUnit& unit, const schema::Queue& queue, int64_t attempts, int64_t now) {
  StatusPatch p;
  p.resource_version = unit.metadata.resource_version;
  std::vector<schema::Admission> admissions = unit.status.admissions;
  for (const auto& d : pod_set_demands(unit)) {
    const int64_t remaining = d.requested - admitted_replicas(unit, d.name);
    if (remaining <= 0) continue;
    auto it = std::find_if(admissions.begin(), admissions.end(), [&](const auto& a) { return a.name == d.name; });
    if (it != admissions.end()) {
      it->replicas += remaining;
    } else {
      schema::Admission a;
      a.name = d.name;
      a.replicas = remaining;
      admissions.push_back(std::move(a));
    }
  }
  p.admissions = std::move(admissions);
  p.attempts = attempts;
  p.last_update_time = now;
  p.last_allocate_time = now;
  const bool from_enqueued = effective_phase(unit.status.phase) == Phase::kEnqueued;
  const auto checks = from_enqueued ? applicable_checks(queue, unit) : std::vector<std::string>{};
  if (!from_enqueued) {
    p.message = kMessageDequeued;  // a top-up keeps its phase and skips admission checks
  } else if (checks.empty()) {
    p.phase = "Dequeued";
    p.message = kMessageDequeued;
  } else {
    p.phase = "Reserved";
    p.message = kMessageReserved;
    std::vector<schema::AdmissionCheckState> states;
    for (const auto& name : checks) {
      schema::AdmissionCheckState s;
      s.name = name;
      s.state = "Pending";
      s.last_transition_time = now;
      s.pod_set_updates_json = "[]";
      states.push_back(std::move(s));
    }
    for (const auto& existing : unit.status.admission_checks) {
      if (std::find(checks.begin(), checks.end(), existing.name) != checks.end()) continue;
      schema::AdmissionCheckState s = existing;
      s.state = "Ready";
      s.message = kMessageCheckRemoved;
      states.push_back(std::move(s));
    }
    p.admission_checks = std::move(states);
  }
  return p;
}

StatusPatch message_patch(const schema::QueueUnit& unit, const std::string& message, int64_t now) {
  StatusPatch p;
  p.resource_version = unit.metadata.resource_version;
  p.message = message;
  p.last_update_time = now;
  return p;
}

ObjectRef object_ref_of(const schema::QueueUnit& unit) {
  return {"QueueUnit", "scheduling.x-k8s.io/v1alpha1", unit.metadata.namespace_, unit.metadata.name, unit.metadata.uid};
}

ObjectRef object_ref_of(const schema::Queue& queue) {
  return {"Queue", "scheduling.x-k8s.io/v1alpha1", queue.metadata.namespace_, queue.metadata.name, queue.metadata.uid};
}

ObjectRef consumer_ref_of(const schema::QueueUnit& unit) {
  if (!unit.spec.consumer_ref) return object_ref_of(unit);
  const auto& c = *unit.spec.consumer_ref;
  return {c.kind, c.api_version, c.namespace_.empty() ? unit.metadata.namespace_ : c.namespace_, c.name, c.uid};
}

}  // namespace koordq::actors
