#include "api/debug_render.hpp"

#include <algorithm>
#include <map>
#include <vector>

#include "api/json_out.hpp"
#include "base/rfc3339.hpp"

namespace koordq::api {
namespace {

using actors::Scheduler;
using actors::UnitState;

void nullable_millis(JsonOut& out, std::string_view key, const std::optional<int64_t>& t) {
  out.key(key);
  if (t) {
    out.string(base::format_rfc3339_millis(*t));
  } else {
    out.null();
  }
}

void unit_item(JsonOut& out, const UnitState& u) {
  out.field("Namespace", u.object.metadata.namespace_).field("Name", u.object.metadata.name);
  out.field("Quota", u.quota).field("Priority", static_cast<int64_t>(u.object.spec.priority.value_or(0)));
}

void queue_entry(JsonOut& out, const Scheduler& s, const actors::QueueState& q) {
  const actors::QueueSettings& settings = q.settings;
  out.begin_object();
  out.field("Policy", q.object.spec.queue_policy.empty() ? std::string_view("Priority")
                                                         : std::string_view(q.object.spec.queue_policy));
  out.field("Running", settings.policy != actors::QueuePolicy::kUnsupported);
  out.field("MaxDepth", settings.max_depth);
  out.field("WaitForPodsRunning", settings.wait_for_pods_running);
  out.field("PreemptionEnabled", settings.preemption_enabled);
  out.field("Preempting", !q.victims.empty());
  out.key("Cursor");
  if (q.cursor) {
    out.string(q.cursor->full_name);
  } else {
    out.null();
  }
  nullable_millis(out, "LastAttemptTime", q.last_attempt);
  out.key("BlockedQuotas").begin_object();
  for (const auto& [quota, blocker] : q.blocked) out.field(quota, blocker);
  out.end_object();

  std::vector<std::pair<const UnitState*, int64_t>> active, backoff;
  int64_t position = 0;
  for (const auto& key : q.waiting) {
    const auto it = s.units().find(key.full_name);
    ++position;
    if (it == s.units().end()) continue;
    (s.is_active(it->second) ? active : backoff).emplace_back(&it->second, position);
  }
  out.key("Active").begin_array();
  for (const auto& [u, pos] : active) {
    out.begin_object();
    unit_item(out, *u);
    out.field("Position", pos).field("Attempts", u->status().attempts);
    out.end_object();
  }
  out.end_array();
  out.key("Backoff").begin_array();
  for (const auto& [u, pos] : backoff) {
    out.begin_object();
    unit_item(out, *u);
    out.field("Position", pos).field("Attempts", u->status().attempts).field("ConsecutiveFailures", u->failures);
    nullable_millis(out, "NextRetryTime", u->backoff_until);
    out.end_object();
  }
  out.end_array();
  std::vector<const UnitState*> assumed;
  for (const std::string& key : q.members) {
    const auto it = s.units().find(key);
    if (it != s.units().end() && it->second.assumed) assumed.push_back(&it->second);
  }
  std::sort(assumed.begin(), assumed.end(), [](const UnitState* a, const UnitState* b) { return a->key < b->key; });
  out.key("Assumed").begin_array();
  for (const UnitState* u : assumed) {
    out.begin_object();
    unit_item(out, *u);
    out.field("Phase", actors::phase_name(u->phase));
    out.key("LastAllocateTime");
    if (const auto& t = u->status().last_allocate_time) {
      out.string(base::format_rfc3339_seconds(*t));
    } else {
      out.null();
    }
    const auto& admissions = u->status().admissions;
    out.field("ReclaimRequested", std::any_of(admissions.begin(), admissions.end(), [](const schema::Admission& a) {
                return a.reclaim_state && a.reclaim_state->replicas > 0;
              }));
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

}  // namespace

std::string render_debug_quotas(const Scheduler& s) {
  std::map<std::string, std::vector<const UnitState*>> items;
  for (const auto& [key, u] : s.units()) {
    if (!u.quota.empty()) items[u.quota].push_back(&u);
  }
  JsonOut out(true);
  out.begin_object();
  for (const std::string& name : s.quotas().names()) {
    const actors::QuotaInfo& info = *s.quotas().find(name);
    const actors::QuotaUsage& usage = s.quotas().usage(name);
    out.key(name).begin_object();
    out.field("Count", usage.count);
    out.key("Max").resource_vector(info.max);
    out.key("Min").resource_vector(info.min);
    out.key("Used").resource_vector(usage.used);
    out.key("SelfUsed").resource_vector(usage.self_used);
    out.key("ChildrenUsed").resource_vector(usage.children_used);
    // Every reservation counts as guaranteed (§8.3).
    out.key("GuaranteedUsed").resource_vector(usage.used);
    out.key("SelfGuaranteedUsed").resource_vector(usage.self_used);
    out.key("ChildrenGuaranteedUsed").resource_vector(usage.children_used);
    out.key("Items").begin_object();
    for (const UnitState* u : items[name]) {
      const auto& meta = u->object.metadata;
      out.key(meta.namespace_ + "/" + meta.name).begin_object();
      out.field("Name", meta.name);
      out.key("Resource").resource_list(u->object.spec.resource);
      out.field("Priority", static_cast<int64_t>(u->object.spec.priority.value_or(0)));
      out.key("CreationTimestamp");
      if (meta.creation_timestamp) {
        out.string(base::format_rfc3339_seconds(*meta.creation_timestamp));
      } else {
        out.null();
      }
      out.field("InReserveCache", u->holds);
      out.end_object();
    }
    out.end_object();
    out.end_object();
  }
  out.end_object();
  return out.take();
}

std::string render_debug_queues(const Scheduler& s) {
  JsonOut out(true);
  out.begin_object();
  for (const auto& [name, q] : s.queues()) {
    out.key(name);
    queue_entry(out, s, q);
  }
  std::vector<const UnitState*> unassigned;
  for (const auto& [key, u] : s.units()) {
    if (u.quota.empty() || !s.queues().count(u.quota)) unassigned.push_back(&u);
  }
  std::sort(unassigned.begin(), unassigned.end(),
            [](const UnitState* a, const UnitState* b) { return a->key < b->key; });
  out.key("_unassigned").begin_array();
  for (const UnitState* u : unassigned) {
    out.begin_object();
    out.field("Namespace", u->object.metadata.namespace_).field("Name", u->object.metadata.name);
    out.field("QuotaName", u->quota).field("Reason", u->quota.empty() ? "NoQuotaLabel" : "QueueNotFound");
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

std::string render_debug_user_quotas(const Scheduler& s) {
  struct Namespace {
    int64_t count = 0, waiting = 0, holding = 0;
    schema::ResourceVector used;
    std::map<std::string, int64_t> phases;
  };
  std::map<std::string, Namespace> namespaces;
  for (const auto& [key, u] : s.units()) {
    Namespace& ns = namespaces[u.object.metadata.namespace_];
    ++ns.count;
    if (u.waiting) ++ns.waiting;
    if (u.holds) {
      ++ns.holding;
      schema::add_to(ns.used, u.charge);
    }
    ++ns.phases[actors::phase_name(u.phase)];
  }
  JsonOut out(true);
  out.begin_object();
  for (const auto& [name, ns] : namespaces) {
    out.key(name).begin_object();
    out.field("Count", ns.count).field("Waiting", ns.waiting).field("Holding", ns.holding);
    out.key("Used").resource_vector(ns.used);
    out.key("Phases").begin_object();
    for (const auto& [phase, n] : ns.phases) out.field(phase, n);
    out.end_object().end_object();
  }
  out.end_object();
  return out.take();
}

}  // namespace koordq::api
