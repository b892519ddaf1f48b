#include "api/visibility_render.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <vector>

#include "api/json_out.hpp"
#include "base/rfc3339.hpp"

namespace koordq::api {
namespace {

using actors::Phase;
using actors::Scheduler;
using actors::UnitState;

// §16.5: the groups after the waiting units.
constexpr std::array<Phase, 10> kGroupOrder = {
    Phase::kReserved,    Phase::kDequeued,       Phase::kSchedReady, Phase::kSchedSucceed, Phase::kRunning,
    Phase::kSchedFailed, Phase::kTimeoutBackoff, Phase::kEnqueued,   Phase::kSucceed,      Phase::kFailed};

size_t group_of(Phase phase) {
  return static_cast<size_t>(std::find(kGroupOrder.begin(), kGroupOrder.end(), phase) - kGroupOrder.begin());
}

void begin_answer(JsonOut& out, std::string_view kind) {
  out.begin_object().field("kind", kind).field("apiVersion", kVisibilityGroupVersion);
}

// An item's metadata; a single-object answer adds the revision it was computed from.
void object_metadata(JsonOut& out, const schema::ObjectMeta& meta, std::optional<uint64_t> revision = std::nullopt) {
  out.key("metadata").begin_object().field("name", meta.name).field("namespace", meta.namespace_);
  if (meta.creation_timestamp) out.field("creationTimestamp", base::format_rfc3339_seconds(*meta.creation_timestamp));
  if (revision) out.field("resourceVersion", std::to_string(*revision));
  out.end_object();
}

// A single-object answer starts with its kind and apiVersion.
void begin_single(JsonOut& out, std::optional<uint64_t> revision, std::string_view kind) {
  out.begin_object();
  if (revision) out.field("kind", kind).field("apiVersion", kVisibilityGroupVersion);
}

void list_metadata(JsonOut& out, uint64_t revision, int64_t remaining) {
  out.key("metadata").begin_object().field("resourceVersion", std::to_string(revision));
  if (remaining > 0) out.field("remainingItemCount", remaining);
  out.end_object();
}

void phase_counts(JsonOut& out, const std::map<std::string, int64_t>& counts) {
  out.key("phaseCounts").begin_object();
  for (const auto& [phase, n] : counts) {
    if (n > 0) out.field(phase, n);
  }
  out.end_object();
}

// Calls `f` with the state of each of `members` (unit keys) in key order. A queue holding a good
// part of all units walks the unit map alongside its members (one step each) instead of searching
// the map for every member (a tree descent of string comparisons each).
template <class F>
void for_each_member(const Scheduler& s, const std::set<std::string>& members, F&& f) {
  const auto& units = s.units();
  if (members.size() * 16 < units.size()) {
    for (const std::string& key : members) {
      if (const auto it = units.find(key); it != units.end()) f(it->second);
    }
    return;
  }
  auto it = units.begin();
  for (const std::string& key : members) {
    while (it != units.end() && it->first < key) ++it;
    if (it == units.end()) return;
    if (it->first == key) f(it->second);
  }
}

// A queue's summary: a list item, or with `revision` the single-object answer.
void queue_item(JsonOut& out, const Scheduler& s, const actors::QueueState& q,
                std::optional<uint64_t> revision = std::nullopt) {
  std::map<std::string, int64_t> counts;
  int64_t active = 0, backoff = 0, assumed = 0;
  for_each_member(s, q.members, [&](const UnitState& u) {
    ++counts[actors::phase_name(u.phase)];
    if (u.waiting) ++(s.is_active(u) ? active : backoff);
    if (u.assumed) ++assumed;
  });
  begin_single(out, revision, "Queue");
  object_metadata(out, q.object.metadata, revision);
  out.field("policy", q.object.spec.queue_policy.empty() ? std::string_view("Priority")
                                                         : std::string_view(q.object.spec.queue_policy));
  phase_counts(out, counts);
  out.field("activeCount", active).field("backoffCount", backoff).field("assumedCount", assumed);
  out.end_object();
}

PhaseCounts quota_phase_counts(const Scheduler& s, const std::string& quota) {
  PhaseCounts counts;
  for (const auto& [key, u] : s.units()) {
    if (u.quota == quota) ++counts[actors::phase_name(u.phase)];
  }
  return counts;
}

void quota_item(JsonOut& out, const Scheduler& s, const actors::QuotaInfo& info, const PhaseCounts& counts,
                std::optional<uint64_t> revision = std::nullopt) {
  begin_single(out, revision, "ElasticQuota");
  object_metadata(out, info.object.metadata, revision);
  out.field("parent", info.parent.empty() ? actors::kRootQuota : std::string_view(info.parent));
  out.key("min").resource_list(info.min_raw);
  out.key("max").resource_list(info.max_raw);
  out.key("used").rendered_vector(s.quotas().usage(info.name).used);
  phase_counts(out, counts);
  out.end_object();
}

// A page of a sequence of `total` items: [first, last).
std::pair<size_t, size_t> page_bounds(size_t total, const PageParams& page) {
  const size_t first = std::min(total, static_cast<size_t>(page.offset));
  const size_t last = std::min(total, first + static_cast<size_t>(page.limit));
  return {first, last};
}

struct SummaryEntry {
  const UnitState* unit;
  std::optional<int64_t> position;  // 0-based, waiting units only
};

void summary_item(JsonOut& out, const SummaryEntry& e) {
  const UnitState& u = *e.unit;
  const auto& o = u.object;
  out.begin_object();
  object_metadata(out, o.metadata);
  out.field("quotaName", u.quota).field("queueName", u.quota);
  out.field("priority", static_cast<int64_t>(o.spec.priority.value_or(0)));
  if (e.position) out.field("positionInQueue", *e.position);
  if (!o.spec.request.empty()) out.key("request").resource_list(o.spec.request);
  if (!o.spec.resource.empty()) out.key("resources").resource_list(o.spec.resource);
  out.field("phase", actors::phase_name(u.phase));
  const auto& pod_state = u.status().pod_state;
  out.key("podState")
      .begin_object()
      .field("running", pod_state ? pod_state->running : 0)
      .field("pending", pod_state ? pod_state->pending : 0)
      .end_object();
  out.end_object();
}

bool name_contains(const UnitState& u, const std::string& text) {
  const auto& meta = u.object.metadata;
  if (meta.namespace_.find(text) != std::string::npos || meta.name.find(text) != std::string::npos) return true;
  return text.find('/') != std::string::npos && (meta.namespace_ + "/" + meta.name).find(text) != std::string::npos;
}

bool passes(const UnitState& u, const UnitFilter& filter) {
  if (filter.phases && !filter.phases->count(u.phase)) return false;
  if (filter.namespace_ && u.object.metadata.namespace_ != *filter.namespace_) return false;
  if (filter.name_contains && !name_contains(u, *filter.name_contains)) return false;
  return !filter.queue || u.quota == *filter.queue;
}

// §16.5: the waiting units of `queue` by position, then `others` (units that are not waiting)
// grouped by phase, each group in §6.1 order; the filter applies to both, and only the page's
// waiting units are looked up when nothing filters them.
std::string render_summary(const Scheduler& s, uint64_t revision, const actors::QueueState* queue,
                           std::vector<const UnitState*> others, const UnitFilter& filter, const PageParams& page) {
  std::erase_if(others, [&](const UnitState* u) { return !passes(*u, filter); });
  std::sort(others.begin(), others.end(), [](const UnitState* a, const UnitState* b) {
    const size_t ga = group_of(a->phase), gb = group_of(b->phase);
    if (ga != gb) return ga < gb;
    return a->key < b->key;
  });
  std::vector<SummaryEntry> waiting;  // the page's waiting entries
  size_t waiting_total = 0;
  const size_t first = static_cast<size_t>(page.offset);
  const size_t last = first + static_cast<size_t>(page.limit);
  if (queue != nullptr && !filter.phases && !filter.queue && !filter.namespace_ && !filter.name_contains) {
    // Unfiltered: the count is the queue's, and only the page's entries are walked to.
    waiting_total = queue->waiting.size();
    auto key = queue->waiting.begin();
    std::advance(key, std::min(first, waiting_total));
    for (size_t position = first; position < std::min(last, waiting_total); ++position, ++key) {
      const auto it = s.units().find(key->full_name);
      if (it != s.units().end()) waiting.push_back({&it->second, static_cast<int64_t>(position)});
    }
  } else if (queue != nullptr) {
    int64_t position = 0;
    for (const auto& key : queue->waiting) {
      const auto it = s.units().find(key.full_name);
      if (it != s.units().end() && passes(it->second, filter)) {
        if (waiting_total >= first && waiting_total < last) waiting.push_back({&it->second, position});
        ++waiting_total;
      }
      ++position;
    }
  }
  const size_t total = waiting_total + others.size();
  const size_t end = std::min(total, last);
  JsonOut out;
  out.reserve(256 + 320 * (end - std::min(first, end)));  // an item is about 270 bytes
  begin_answer(out, "QueueUnitsSummary");
  list_metadata(out, revision, static_cast<int64_t>(total - end));
  out.key("items").begin_array();
  for (const SummaryEntry& e : waiting) summary_item(out, e);
  for (size_t i = std::max(first, waiting_total); i < end; ++i) summary_item(out, {others[i - waiting_total], {}});
  out.end_array().end_object();
  return out.take();
}

}  // namespace

std::string render_queue_list(const Scheduler& s, uint64_t revision, const PageParams& page) {
  const auto [first, last] = page_bounds(s.queues().size(), page);
  JsonOut out;
  begin_answer(out, "QueueList");
  list_metadata(out, revision, static_cast<int64_t>(s.queues().size() - last));
  out.key("items").begin_array();
  auto it = s.queues().begin();
  std::advance(it, first);
  for (size_t i = first; i < last; ++i, ++it) queue_item(out, s, it->second);
  out.end_array().end_object();
  return out.take();
}

std::optional<std::string> render_queue(const Scheduler& s, uint64_t revision, const std::string& name) {
  const auto it = s.queues().find(name);
  if (it == s.queues().end()) return std::nullopt;
  JsonOut out;
  queue_item(out, s, it->second, revision);
  return out.take();
}

std::optional<std::string> render_queue_units(const Scheduler& s, uint64_t revision, const std::string& queue,
                                              const UnitFilter& filter, const PageParams& page) {
  const auto it = s.queues().find(queue);
  if (it == s.queues().end()) return std::nullopt;
  std::vector<const UnitState*> others;
  for_each_member(s, it->second.not_waiting, [&](const UnitState& u) {
    // Without a phase filter the queue shows what it holds: its waiting and assumed units.
    if (filter.phases || u.assumed) others.push_back(&u);
  });
  return render_summary(s, revision, &it->second, std::move(others), filter, page);
}

std::string render_quota_list(const Scheduler& s, uint64_t revision, const PageParams& page) {
  const std::vector<std::string> names = s.quotas().names();
  const auto [first, last] = page_bounds(names.size(), page);
  const auto counts = phase_counts_by_quota(s);
  const PhaseCounts none;
  JsonOut out;
  begin_answer(out, "ElasticQuotaList");
  list_metadata(out, revision, static_cast<int64_t>(names.size() - last));
  out.key("items").begin_array();
  for (size_t i = first; i < last; ++i) {
    const auto c = counts.find(names[i]);
    quota_item(out, s, *s.quotas().find(names[i]), c == counts.end() ? none : c->second);
  }
  out.end_array().end_object();
  return out.take();
}

std::optional<std::string> render_quota(const Scheduler& s, uint64_t revision, const std::string& name) {
  const actors::QuotaInfo* info = s.quotas().find(name);
  if (info == nullptr) return std::nullopt;
  JsonOut out;
  quota_item(out, s, *info, quota_phase_counts(s, name), revision);
  return out.take();
}

std::optional<std::string> render_quota_units(const Scheduler& s, uint64_t revision, const std::string& quota,
                                              const UnitFilter& filter, const PageParams& page) {
  std::vector<const UnitState*> others;
  bool any = false;
  for (const auto& [key, u] : s.units()) {
    if (u.quota != quota) continue;
    any = true;
    if (!u.waiting) others.push_back(&u);
  }
  if (!any && !s.quotas().known(quota)) return std::nullopt;
  // The quota's waiting units are those of the queue its name maps to (§4).
  const auto q = s.queues().find(quota);
  return render_summary(s, revision, q == s.queues().end() ? nullptr : &q->second, std::move(others), filter, page);
}

std::map<std::string, PhaseCounts> phase_counts_by_quota(const Scheduler& s) {
  std::map<std::string, PhaseCounts> counts;
  for (const auto& [key, u] : s.units()) ++counts[u.quota][actors::phase_name(u.phase)];
  return counts;
}

void write_queue_item(JsonOut& out, const Scheduler& s, const actors::QueueState& q) {
  queue_item(out, s, q);
}

void write_quota_item(JsonOut& out, const Scheduler& s, const actors::QuotaInfo& info, const PhaseCounts& counts) {
  quota_item(out, s, info, counts);
}

void write_list_metadata(JsonOut& out, uint64_t revision, int64_t remaining) {
  list_metadata(out, revision, remaining);
}

}  // namespace koordq::api
