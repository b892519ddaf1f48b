#include "api/debug_render.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <vector>

#include "api/json_out.hpp"
#include "base/rfc3339.hpp"

namespace koordq::api {
namespace {

using actors::Scheduler;
using actors::pages::QueuePage;
using actors::pages::QuotaAccount;
using actors::pages::ReadPages;
using actors::pages::UnitRow;

void nullable_millis(JsonOut& out, std::string_view key, const std::optional<int64_t>& t) {
  out.key(key);
  if (t) {
    out.string(base::format_rfc3339_millis(*t));
  } else {
    out.null();
  }
}

void unit_item(JsonOut& out, const UnitRow& u) {
  out.field("Namespace", u.namespace_).field("Name", u.name);
  out.field("Quota", u.quota).field("Priority", u.priority);
}

void queue_entry(JsonOut& out, const QueuePage& page) {
  const actors::pages::QueueFacts& q = *page.queue;
  out.begin_object();
  out.field("Policy", q.policy.empty() ? std::string_view("Priority") : std::string_view(q.policy));
  out.field("Running", q.running);
  out.field("MaxDepth", q.max_depth);
  out.field("WaitForPodsRunning", q.wait_for_pods_running);
  out.field("PreemptionEnabled", q.preemption_enabled);
  out.field("Preempting", q.preempting);
  out.key("Cursor");
  if (q.cursor) {
    out.string(*q.cursor);
  } else {
    out.null();
  }
  nullable_millis(out, "LastAttemptTime", q.last_attempt);
  out.key("BlockedQuotas").begin_object();
  for (const auto& [quota, blocker] : q.blocked) out.field(quota, blocker);
  out.end_object();

  std::vector<std::pair<const UnitRow*, int64_t>> active, backoff;
  int64_t position = 0;
  for (const size_t index : page.waiting) {
    const UnitRow& u = page.row(index);
    ++position;
    (u.active ? active : backoff).emplace_back(&u, position);
  }
  out.key("Active").begin_array();
  for (const auto& [u, pos] : active) {
    out.begin_object();
    unit_item(out, *u);
    out.field("Position", pos).field("Attempts", u->attempts);
    out.end_object();
  }
  out.end_array();
  out.key("Backoff").begin_array();
  for (const auto& [u, pos] : backoff) {
    out.begin_object();
    unit_item(out, *u);
    out.field("Position", pos).field("Attempts", u->attempts).field("ConsecutiveFailures", u->failures);
    nullable_millis(out, "NextRetryTime", u->backoff_until);
    out.end_object();
  }
  out.end_array();
  std::vector<const UnitRow*> assumed;
  for (const auto& u : page.units) {
    if (u->assumed) assumed.push_back(u.get());
  }
  std::sort(assumed.begin(), assumed.end(), [](const UnitRow* a, const UnitRow* b) { return a->order < b->order; });
  out.key("Assumed").begin_array();
  for (const UnitRow* u : assumed) {
    out.begin_object();
    unit_item(out, *u);
    out.field("Phase", actors::phase_name(u->phase));
    out.key("LastAllocateTime");
    if (const auto& t = u->last_allocate_time) {
      out.string(base::format_rfc3339_seconds(*t));
    } else {
      out.null();
    }
    out.field("ReclaimRequested", u->reclaim_requested);
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

}  // namespace

std::string render_debug_quotas(const ReadPages& p) {
  JsonOut out(true);
  out.begin_object();
  for (const std::string_view quota_name : actors::pages::quota_names(p)) {
    const std::string name(quota_name);
    const QuotaAccount* quota = actors::pages::find_quota_account(p, name);
    const actors::QuotaUsage& usage = quota->usage;
    out.key(name).begin_object();
    out.field("Count", usage.count);
    out.key("Max").resource_vector(quota->max);
    out.key("Min").resource_vector(quota->min);
    out.key("Used").resource_vector(usage.used);
    out.key("SelfUsed").resource_vector(usage.self_used);
    out.key("ChildrenUsed").resource_vector(usage.children_used);
    // Every reservation counts as guaranteed (§8.3).
    out.key("GuaranteedUsed").resource_vector(usage.used);
    out.key("SelfGuaranteedUsed").resource_vector(usage.self_used);
    out.key("ChildrenGuaranteedUsed").resource_vector(usage.children_used);
    out.key("Items").begin_object();
    if (const QueuePage* page = actors::pages::find_queue_page(p, name); page != nullptr) {
      for (const auto& row : page->units) {
        const UnitRow& u = *row;
        out.key(u.namespace_ + "/" + u.name).begin_object();
        out.field("Name", u.name);
        out.key("Resource").resource_list(u.resource);
        out.field("Priority", u.priority);
        out.key("CreationTimestamp");
        if (u.creation_timestamp) {
          out.string(base::format_rfc3339_seconds(*u.creation_timestamp));
        } else {
          out.null();
        }
        out.field("InReserveCache", u.holds);
        out.end_object();
      }
    }
    out.end_object();
    out.end_object();
  }
  out.end_object();
  return out.take();
}

std::string render_debug_queues(const ReadPages& p) {
  JsonOut out(true);
  out.begin_object();
  std::vector<const UnitRow*> unassigned;
  for (const auto& [name, page] : *actors::pages::every_page(p).queues) {
    if (!page->queue) {
      for (const auto& u : page->units) unassigned.push_back(u.get());
      continue;
    }
    out.key(name);
    queue_entry(out, *page);
  }
  std::sort(unassigned.begin(), unassigned.end(),
            [](const UnitRow* a, const UnitRow* b) { return a->order < b->order; });
  out.key("_unassigned").begin_array();
  for (const UnitRow* u : unassigned) {
    out.begin_object();
    out.field("Namespace", u->namespace_).field("Name", u->name);
    out.field("QuotaName", u->quota).field("Reason", u->quota.empty() ? "NoQuotaLabel" : "QueueNotFound");
    out.end_object();
  }
  out.end_array();
  out.end_object();
  return out.take();
}

std::string render_debug_user_quotas(const ReadPages& p) {
  JsonOut out(true);
  out.begin_object();
  for (const auto& [name, ns] : *actors::pages::every_page(p).namespaces) {
    out.key(name).begin_object();
    out.field("Count", ns->count).field("Waiting", ns->waiting).field("Holding", ns->holding);
    out.key("Used").resource_vector(ns->used);
    out.key("Phases").begin_object();
    for (const auto& [phase, n] : ns->phases) out.field(phase, n);
    out.end_object().end_object();
  }
  out.end_object();
  return out.take();
}

std::string render_debug_quotas(const Scheduler& s) {
  return render_debug_quotas(actors::pages::build_read_pages(s, 0));
}

std::string render_debug_queues(const Scheduler& s) {
  return render_debug_queues(actors::pages::build_read_pages(s, 0));
}

std::string render_debug_user_quotas(const Scheduler& s) {
  return render_debug_user_quotas(actors::pages::build_read_pages(s, 0));
}

}  // namespace koordq::api
