#include "actors/core/unit_facts.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

#include "schema/quantity.hpp"

namespace koordq::actors {
namespace {

constexpr std::array<std::pair<std::string_view, Phase>, 11> kPhases = {{
    {"", Phase::kEnqueued},
    {"Enqueued", Phase::kEnqueued},
    {"Reserved", Phase::kReserved},
    {"Dequeued", Phase::kDequeued},
    {"Running", Phase::kRunning},
    {"Succeed", Phase::kSucceed},
    {"Failed", Phase::kFailed},
    {"TimeoutBackoff", Phase::kTimeoutBackoff},
    {"SchedReady", Phase::kSchedReady},
    {"SchedSucceed", Phase::kSchedSucceed},
    {"SchedFailed", Phase::kSchedFailed},
}};

const std::string* label(const schema::QueueUnit& unit, const std::string& key) {
  const auto it = unit.metadata.labels.find(key);
  return it == unit.metadata.labels.end() ? nullptr : &it->second;
}

// Container requests, with the limit standing in for a resource that has no request (§3.4).
schema::ResourceVector per_replica_of(const std::vector<schema::ContainerResources>& containers) {
  schema::ResourceVector sum;
  for (const auto& c : containers) {
    schema::ResourceList effective = c.requests;
    for (const auto& [name, quantity] : c.limits) effective.emplace(name, quantity);
    schema::add_to(sum, schema::to_vector(effective));
  }
  return sum;
}

// The per-replica amounts of the pod set `name` as pod_set_demands gives them (of several sets
// with one name, the last); empty when the unit has no pod set of that name.
schema::ResourceVector per_replica_of_pod_set(const schema::QueueUnit& unit, std::string_view name) {
  if (unit.spec.pod_set.empty()) {
    if (name != kDefaultPodSet) return {};
    return schema::to_vector(unit.spec.request.empty() ? unit.spec.resource : unit.spec.request);
  }
  const schema::PodSet* found = nullptr;
  for (const auto& ps : unit.spec.pod_set) {
    if (ps.name == name) found = &ps;
  }
  return found == nullptr ? schema::ResourceVector{} : per_replica_of(found->containers);
}

}  // namespace

Phase effective_phase(std::string_view phase) {
  // By length first: every refresh of a unit reads its phase several times.
  const auto is = [&](std::string_view name, Phase value) { return phase == name ? value : Phase::kSchedFailed; };
  switch (phase.size()) {
    case 0:
      return Phase::kEnqueued;
    case 6:
      return is("Failed", Phase::kFailed);
    case 7:
      return phase[0] == 'R' ? is("Running", Phase::kRunning) : is("Succeed", Phase::kSucceed);
    case 8:
      switch (phase[0]) {
        case 'E':
          return is("Enqueued", Phase::kEnqueued);
        case 'R':
          return is("Reserved", Phase::kReserved);
        default:
          return is("Dequeued", Phase::kDequeued);
      }
    case 10:
      return is("SchedReady", Phase::kSchedReady);
    case 12:
      return is("SchedSucceed", Phase::kSchedSucceed);
    case 14:
      return is("TimeoutBackoff", Phase::kTimeoutBackoff);
    default:
      return Phase::kSchedFailed;  // "SchedFailed" and every unknown value
  }
}

bool is_known_phase(std::string_view phase) {
  return std::any_of(kPhases.begin(), kPhases.end(), [&](const auto& p) { return p.first == phase; });
}

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::kEnqueued:
      return "Enqueued";
    case Phase::kReserved:
      return "Reserved";
    case Phase::kDequeued:
      return "Dequeued";
    case Phase::kRunning:
      return "Running";
    case Phase::kSucceed:
      return "Succeed";
    case Phase::kFailed:
      return "Failed";
    case Phase::kTimeoutBackoff:
      return "TimeoutBackoff";
    case Phase::kSchedReady:
      return "SchedReady";
    case Phase::kSchedSucceed:
      return "SchedSucceed";
    case Phase::kSchedFailed:
      return "SchedFailed";
  }
  return "SchedFailed";
}

bool is_terminal(Phase phase) {
  return phase == Phase::kSucceed || phase == Phase::kFailed;
}

const std::string& quota_label_of(const schema::QueueUnit& unit) {
  // Built once: every refresh of every unit looks these up, and a key built from the literal at
  // each call is an allocation (longer than the inline capacity of a std::string).
  static const std::string kQuotaName = "quota.scheduling.koordinator.sh/name";
  static const std::string kAlibabaQuotaName = "alibabacloud.com/quota-name";
  static const std::string kNone;
  if (const auto* q = label(unit, kQuotaName); q != nullptr && !q->empty()) return *q;
  if (const auto* q = label(unit, kAlibabaQuotaName); q != nullptr && !q->empty()) return *q;
  return kNone;
}

std::string quota_name_of(const schema::QueueUnit& unit) {
  return quota_label_of(unit);
}

std::vector<PodSetDemand> pod_set_demands(const schema::QueueUnit& unit) {
  std::vector<PodSetDemand> out;
  if (unit.spec.pod_set.empty()) {
    const auto& amount = unit.spec.request.empty() ? unit.spec.resource : unit.spec.request;
    out.push_back({std::string(kDefaultPodSet), 1, schema::to_vector(amount)});
    return out;
  }
  out.reserve(unit.spec.pod_set.size());
  for (const auto& ps : unit.spec.pod_set) {
    out.push_back({ps.name, std::max<int64_t>(ps.count, 0), per_replica_of(ps.containers)});
  }
  return out;
}

int64_t admitted_replicas(const schema::QueueUnitStatus& status, std::string_view pod_set) {
  for (const auto& a : status.admissions) {
    if (a.name == pod_set) return std::max<int64_t>(a.replicas, 0);
  }
  return 0;
}

int64_t admitted_replicas(const schema::QueueUnit& unit, std::string_view pod_set) {
  return admitted_replicas(unit.status, pod_set);
}

bool is_satisfied(const schema::QueueUnit& unit, const schema::QueueUnitStatus& status) {
  // Replica counts only: the per-replica amounts of pod_set_demands are not needed here.
  if (unit.spec.pod_set.empty()) return admitted_replicas(status, kDefaultPodSet) >= 1;
  return std::all_of(unit.spec.pod_set.begin(), unit.spec.pod_set.end(), [&](const schema::PodSet& ps) {
    return std::max<int64_t>(ps.count, 0) <= admitted_replicas(status, ps.name);
  });
}

bool is_satisfied(const schema::QueueUnit& unit) {
  return is_satisfied(unit, unit.status);
}

bool is_all_running(const schema::QueueUnitStatus& status) {
  if (status.admissions.empty()) return false;
  return std::all_of(status.admissions.begin(), status.admissions.end(),
                     [](const schema::Admission& a) { return a.running >= a.replicas; });
}

bool is_all_running(const schema::QueueUnit& unit) {
  return is_all_running(unit.status);
}

bool holds_quota(const schema::QueueUnitStatus& status) {
  const Phase p = effective_phase(status.phase);
  if (is_terminal(p)) return false;
  if (p == Phase::kReserved || p == Phase::kDequeued || p == Phase::kRunning || p == Phase::kSchedReady ||
      p == Phase::kSchedSucceed) {
    return true;
  }
  return std::any_of(status.admissions.begin(), status.admissions.end(),
                     [](const schema::Admission& a) { return a.replicas > 0; });
}

bool holds_quota(const schema::QueueUnit& unit) {
  return holds_quota(unit.status);
}

schema::ResourceVector charge_of(const schema::QueueUnit& unit) {
  return charge_of(unit, unit.status);
}

schema::ResourceVector charge_of(const schema::QueueUnit& unit, const schema::QueueUnitStatus& status) {
  if (status.admissions.empty()) return schema::to_vector(unit.spec.resource);
  schema::ResourceVector total;
  for (const auto& a : status.admissions) {
    // Only the admitted pod set's amounts are built (not pod_set_demands of every set): every
    // refresh of a unit holding quota computes its charge.
    schema::ResourceVector larger =
        a.replicas > 0 ? schema::scaled(per_replica_of_pod_set(unit, a.name), a.replicas) : schema::ResourceVector{};
    if (a.resources) {
      for (const auto& [r, v] : schema::to_vector(*a.resources)) {
        auto& slot = larger[r];
        slot = std::max(slot, v);
      }
    }
    if (total.empty()) {
      total = std::move(larger);
    } else {
      schema::add_to(total, larger);
    }
  }
  return total;
}

schema::ResourceVector request_of(const schema::QueueUnit& unit) {
  if (unit.status.admissions.empty()) {
    return schema::to_vector(unit.spec.resource.empty() ? unit.spec.request : unit.spec.resource);
  }
  schema::ResourceVector total;
  for (const auto& d : pod_set_demands(unit)) {
    const int64_t remaining = std::max<int64_t>(d.requested - admitted_replicas(unit, d.name), 0);
    schema::add_to(total, schema::scaled(d.per_replica, remaining));
  }
  return total;
}

bool may_wait(const schema::QueueUnit& unit, const schema::QueueUnitStatus& status) {
  if (unit.spec.active == false || unit.metadata.deletion_timestamp) return false;
  const Phase p = effective_phase(status.phase);
  if (p != Phase::kEnqueued && p != Phase::kDequeued && p != Phase::kRunning && p != Phase::kSchedSucceed) {
    return false;
  }
  return !is_satisfied(unit, status);
}

bool may_wait(const schema::QueueUnit& unit) {
  return may_wait(unit, unit.status);
}

namespace {

// `problem` of one quantity text ("does not parse", "is negative", "is too large"), or empty.
std::string quantity_problem(const std::string& resource, const std::string& text) {
  auto quantity = schema::Quantity::parse(text);
  if (!quantity.ok()) return "does not parse";
  if (quantity->negative() && !quantity->is_zero()) return "is negative";
  if (quantity->to_internal(resource) == std::numeric_limits<int64_t>::max()) return "is too large";
  return {};
}

void check_list(std::string& out, const std::string& path, const schema::ResourceList& list) {
  for (const auto& [resource, text] : list) {
    const std::string problem = quantity_problem(resource, text);
    if (problem.empty()) continue;
    if (!out.empty()) out += "; ";
    out += path + "[\"" + resource + "\"] \"" + text + "\" " + problem;
  }
}

}  // namespace

std::string invalid_quantities(const schema::QueueUnit& unit) {
  std::string out;
  check_list(out, "spec.resource", unit.spec.resource);
  check_list(out, "spec.request", unit.spec.request);
  for (size_t i = 0; i < unit.spec.pod_set.size(); ++i) {
    const auto& containers = unit.spec.pod_set[i].containers;
    for (size_t c = 0; c < containers.size(); ++c) {
      const std::string at = "spec.podSet[" + std::to_string(i) + "].containers[" + std::to_string(c) + "].resources";
      check_list(out, at + ".requests", containers[c].requests);
      check_list(out, at + ".limits", containers[c].limits);
    }
  }
  return out;
}

bool reclaim_requested(const schema::QueueUnit& unit) {
  return std::any_of(unit.status.admissions.begin(), unit.status.admissions.end(),
                     [](const schema::Admission& a) { return a.reclaim_state && a.reclaim_state->replicas > 0; });
}

}  // namespace koordq::actors
