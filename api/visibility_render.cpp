#include "api/visibility_render.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>
#include <vector>

#include "api/json_out.hpp"
#include "base/rfc3339.hpp"

namespace koordq::api {
namespace {

using actors::Phase;
using actors::Scheduler;
using actors::pages::QueuePage;
using actors::pages::QueueSummary;
using actors::pages::QuotaAccount;
using actors::pages::ReadPages;
using actors::pages::UnitRow;

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
void object_metadata(JsonOut& out, const std::string& name, const std::string& namespace_,
                     const std::optional<int64_t>& creation, std::optional<uint64_t> revision = std::nullopt) {
  out.key("metadata").begin_object().field("name", name).field("namespace", namespace_);
  if (creation) out.field("creationTimestamp", base::format_rfc3339_seconds(*creation));
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

// A queue's summary: a list item, or with `revision` the single-object answer.
void queue_item(JsonOut& out, const QueueSummary& page, std::optional<uint64_t> revision = std::nullopt) {
  const actors::pages::QueueFacts& q = *page.queue;
  begin_single(out, revision, "Queue");
  object_metadata(out, q.name, q.namespace_, q.creation_timestamp, revision);
  out.field("policy", q.policy.empty() ? std::string_view("Priority") : std::string_view(q.policy));
  phase_counts(out, page.phase_counts);
  out.field("activeCount", page.active).field("backoffCount", page.backoff).field("assumedCount", page.assumed);
  out.end_object();
}

void quota_item(JsonOut& out, const QuotaAccount& quota, const PhaseCounts& counts,
                std::optional<uint64_t> revision = std::nullopt) {
  begin_single(out, revision, "ElasticQuota");
  object_metadata(out, quota.name, quota.namespace_, quota.creation_timestamp, revision);
  out.field("parent", quota.parent.empty() ? actors::kRootQuota : std::string_view(quota.parent));
  out.key("min").resource_list(quota.min_raw);
  out.key("max").resource_list(quota.max_raw);
  out.key("used").rendered_vector(quota.usage.used);
  phase_counts(out, counts);
  out.end_object();
}

const PhaseCounts& counts_of(const ReadPages& p, const std::string& label) {
  static const PhaseCounts kNone;
  const QueueSummary* page = actors::pages::find_queue_summary(p, label);
  return page == nullptr ? kNone : page->phase_counts;
}

// A page of a sequence of `total` items: [first, last).
std::pair<size_t, size_t> page_bounds(size_t total, const PageParams& page) {
  const size_t first = std::min(total, static_cast<size_t>(page.offset));
  const size_t last = std::min(total, first + static_cast<size_t>(page.limit));
  return {first, last};
}

struct SummaryEntry {
  const UnitRow* unit;
  std::optional<int64_t> position;  // 0-based, waiting units only
};

void summary_item(JsonOut& out, const SummaryEntry& e) {
  const UnitRow& u = *e.unit;
  out.begin_object();
  object_metadata(out, u.name, u.namespace_, u.creation_timestamp);
  out.field("quotaName", u.quota).field("queueName", u.quota);
  out.field("priority", u.priority);
  if (e.position) out.field("positionInQueue", *e.position);
  if (!u.request.empty()) out.key("request").resource_list(u.request);
  if (!u.resource.empty()) out.key("resources").resource_list(u.resource);
  out.field("phase", actors::phase_name(u.phase));
  out.key("podState").begin_object().field("running", u.pods_running).field("pending", u.pods_pending).end_object();
  out.end_object();
}

bool name_contains(const UnitRow& u, const std::string& text) {
  if (u.namespace_.find(text) != std::string::npos || u.name.find(text) != std::string::npos) return true;
  return text.find('/') != std::string::npos && (u.namespace_ + "/" + u.name).find(text) != std::string::npos;
}

bool passes(const UnitRow& u, const UnitFilter& filter) {
  if (filter.phases && !filter.phases->count(u.phase)) return false;
  if (filter.namespace_ && u.namespace_ != *filter.namespace_) return false;
  if (filter.name_contains && !name_contains(u, *filter.name_contains)) return false;
  return !filter.queue || u.quota == *filter.queue;
}

// §16.5: the waiting units of `queue` by position, then `others` (units that are not waiting)
// grouped by phase, each group in §6.1 order; the filter applies to both, and only the page's
// waiting units are walked to when nothing filters them.
std::string render_summary(uint64_t revision, const QueuePage* queue, std::vector<const UnitRow*> others,
                           const UnitFilter& filter, const PageParams& page) {
  std::erase_if(others, [&](const UnitRow* u) { return !passes(*u, filter); });
  std::sort(others.begin(), others.end(), [](const UnitRow* a, const UnitRow* b) {
    const size_t ga = group_of(a->phase), gb = group_of(b->phase);
    if (ga != gb) return ga < gb;
    return a->order < b->order;
  });
  std::vector<SummaryEntry> waiting;  // the page's waiting entries
  size_t waiting_total = 0;
  const size_t first = static_cast<size_t>(page.offset);
  const size_t last = first + static_cast<size_t>(page.limit);
  if (queue != nullptr && !filter.phases && !filter.queue && !filter.namespace_ && !filter.name_contains) {
    // Unfiltered: the count is the queue's, and only the page's entries are walked to.
    waiting_total = queue->waiting.size();
    for (size_t position = first; position < std::min(last, waiting_total); ++position) {
      waiting.push_back({&queue->row(queue->waiting[position]), static_cast<int64_t>(position)});
    }
  } else if (queue != nullptr) {
    int64_t position = 0;
    for (const size_t index : queue->waiting) {
      const UnitRow& u = queue->row(index);
      if (passes(u, filter)) {
        if (waiting_total >= first && waiting_total < last) waiting.push_back({&u, position});
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

std::string render_queue_list(const ReadPages& p, const PageParams& page) {
  const std::vector<std::string_view> names = actors::pages::queue_names(p);
  const auto [first, last] = page_bounds(names.size(), page);
  JsonOut out;
  begin_answer(out, "QueueList");
  list_metadata(out, p.revision, static_cast<int64_t>(names.size() - last));
  out.key("items").begin_array();
  for (size_t i = first; i < last; ++i) queue_item(out, *actors::pages::find_queue_summary(p, std::string(names[i])));
  out.end_array().end_object();
  return out.take();
}

std::optional<std::string> render_queue(const ReadPages& p, const std::string& name) {
  const QueueSummary* page = actors::pages::find_queue_summary(p, name);
  if (page == nullptr || !page->queue) return std::nullopt;
  JsonOut out;
  queue_item(out, *page, p.revision);
  return out.take();
}

std::optional<std::string> render_queue_units(const ReadPages& p, const std::string& queue, const UnitFilter& filter,
                                              const PageParams& page) {
  const QueuePage* q = actors::pages::find_queue_page(p, queue);
  if (q == nullptr || !q->queue) return std::nullopt;
  std::vector<const UnitRow*> others;
  for (const size_t index : q->not_waiting) {
    // Without a phase filter the queue shows what it holds: its waiting and assumed units.
    if (filter.phases || q->row(index).assumed) others.push_back(&q->row(index));
  }
  return render_summary(p.revision, q, std::move(others), filter, page);
}

std::string render_quota_list(const ReadPages& p, const PageParams& page) {
  const std::vector<std::string_view> names = actors::pages::quota_names(p);
  const auto [first, last] = page_bounds(names.size(), page);
  JsonOut out;
  begin_answer(out, "ElasticQuotaList");
  list_metadata(out, p.revision, static_cast<int64_t>(names.size() - last));
  out.key("items").begin_array();
  for (size_t i = first; i < last; ++i) {
    const std::string name(names[i]);
    quota_item(out, *actors::pages::find_quota_account(p, name), counts_of(p, name));
  }
  out.end_array().end_object();
  return out.take();
}

std::optional<std::string> render_quota(const ReadPages& p, const std::string& name) {
  const QuotaAccount* quota = actors::pages::find_quota_account(p, name);
  if (quota == nullptr) return std::nullopt;
  JsonOut out;
  quota_item(out, *quota, counts_of(p, name), p.revision);
  return out.take();
}

std::optional<std::string> render_quota_units(const ReadPages& p, const std::string& quota, const UnitFilter& filter,
                                              const PageParams& page) {
  const QueuePage* q = actors::pages::find_queue_page(p, quota);
  const bool any = q != nullptr && !q->units.empty();
  if (!any && actors::pages::find_quota_account(p, quota) == nullptr) return std::nullopt;
  std::vector<const UnitRow*> others;
  if (q != nullptr) {
    for (const size_t index : q->not_waiting) others.push_back(&q->row(index));
  }
  // The quota's waiting units are those of the queue its name maps to (§4).
  return render_summary(p.revision, q != nullptr && q->queue ? q : nullptr, std::move(others), filter, page);
}

std::string render_queue_list(const Scheduler& s, uint64_t revision, const PageParams& page) {
  return render_queue_list(actors::pages::read_pages_on_demand(s, revision), page);
}

std::optional<std::string> render_queue(const Scheduler& s, uint64_t revision, const std::string& name) {
  return render_queue(actors::pages::read_pages_on_demand(s, revision), name);
}

std::optional<std::string> render_queue_units(const Scheduler& s, uint64_t revision, const std::string& queue,
                                              const UnitFilter& filter, const PageParams& page) {
  return render_queue_units(actors::pages::read_pages_on_demand(s, revision), queue, filter, page);
}

std::string render_quota_list(const Scheduler& s, uint64_t revision, const PageParams& page) {
  return render_quota_list(actors::pages::read_pages_on_demand(s, revision), page);
}

std::optional<std::string> render_quota(const Scheduler& s, uint64_t revision, const std::string& name) {
  return render_quota(actors::pages::read_pages_on_demand(s, revision), name);
}

std::optional<std::string> render_quota_units(const Scheduler& s, uint64_t revision, const std::string& quota,
                                              const UnitFilter& filter, const PageParams& page) {
  return render_quota_units(actors::pages::read_pages_on_demand(s, revision), quota, filter, page);
}

std::map<std::string, PhaseCounts> phase_counts_by_quota(const Scheduler& s) {
  std::map<std::string, PhaseCounts> counts;
  for (const auto& [key, u] : s.units()) ++counts[u.quota][actors::phase_name(u.phase)];
  return counts;
}

void write_queue_item(JsonOut& out, const QueueSummary& q) {
  queue_item(out, q);
}

void write_queue_item(JsonOut& out, const Scheduler& s, const actors::QueueState& q) {
  queue_item(out, actors::pages::summarize_queue(s, q.object.metadata.name, q.members));
}

void write_quota_item(JsonOut& out, const Scheduler& s, const actors::QuotaInfo& info, const PhaseCounts& counts) {
  quota_item(out, actors::pages::build_quota_account(s, info.name), counts);
}

void write_list_metadata(JsonOut& out, uint64_t revision, int64_t remaining) {
  list_metadata(out, revision, remaining);
}

}  // namespace koordq::api
