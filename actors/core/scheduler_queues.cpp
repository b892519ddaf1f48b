// Scheduler: the Queues koordq keeps for the quotas (behaviour.md §2.5), their usage annotations
// (§14.3), and the journaled metric state (§15.4). Apply-side bookkeeping and the pure helpers
// the decide round uses.
#include <algorithm>

#include "actors/core/scheduler.hpp"
#include "base/json_string.hpp"
#include "base/time_units.hpp"

namespace koordq::actors {
namespace {

using base::kMillisecond;
using base::kSecond;

const char* const kParentLabel = "quota.scheduling.koordinator.sh/parent";
const char* const kPolicyLabel = "koord-queue/queue-policy";
const char* const kEnableAnnotation = "quota-koord-queue-enable";

// Compact JSON of the non-zero entries, keys in bytewise order (§14.3).
std::string usage_json(const schema::ResourceVector& v) {
  std::string out = "{";
  for (const auto& [name, amount] : v) {
    if (amount == 0) continue;
    if (out.size() > 1) out += ',';
    base::append_json_string(out, name);
    out += ':' + std::to_string(amount);
  }
  return out + "}";
}

}  // namespace

bool queue_changed(const schema::Queue& before, const schema::Queue& after) {
  auto strip = [](schema::Queue q) {
    q.metadata.resource_version.clear();
    q.status = {};
    for (const char* name : kUsageAnnotationNames) q.metadata.annotations.erase(name);
    return q;
  };
  return strip(before) != strip(after);
}

UsageAnnotations usage_on_queue(const QueueState& q) {
  if (q.usage_written) return *q.usage_written;
  UsageAnnotations out;
  for (size_t slot = 0; slot < UsageAnnotations::kSlots; ++slot) {
    const auto& annotations = q.object.metadata.annotations;
    if (auto it = annotations.find(kUsageAnnotationNames[slot]); it != annotations.end()) out.set(slot, it->second);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Histograms

void Histogram::observe(int64_t value) {
  value = std::max<int64_t>(value, 0);  // negative values count as 0 (§15.2)
  if (counts.size() != bounds.size() + 1) counts.resize(bounds.size() + 1, 0);
  const auto it = std::lower_bound(bounds.begin(), bounds.end(), value);  // first bound ≥ value
  ++counts[static_cast<size_t>(it - bounds.begin())];
  ++count;
  sum = value > INT64_MAX - sum ? INT64_MAX : sum + value;
}

uint64_t Histogram::cumulative(size_t bucket) const {
  uint64_t n = 0;
  for (size_t i = 0; i <= bucket && i < counts.size(); ++i) n += counts[i];
  return n;
}

Histogram QueueingMetrics::admission_wait_histogram() {
  Histogram h;
  h.bounds.push_back(kSecond);
  for (int64_t k = 0, b = 2'500'000'000; k <= 12; ++k, b *= 2) h.bounds.push_back(b);
  h.counts.assign(h.bounds.size() + 1, 0);
  return h;
}

Histogram QueueingMetrics::e2e_histogram() {
  Histogram h;
  for (int64_t k = 0, b = kMillisecond; k <= 12; ++k, b *= 4) h.bounds.push_back(b);
  h.counts.assign(h.bounds.size() + 1, 0);
  return h;
}

// ---------------------------------------------------------------------------------------------
// §2.5 auto-created Queues

QueueItems Scheduler::queue_items_of(const QuotaInfo& quota) {
  QueueItems items;
  const auto& p = quota.queue_policy;
  items.queue_policy = p == "Priority" || p == "Block" || p == "Intelligent" || p == "Round" ? p : "Priority";
  const auto& labels = quota.object.metadata.labels;
  if (auto it = labels.find(kParentLabel); it != labels.end()) items.parent = it->second;
  items.enable = quota.enable_annotation;
  return items;
}

bool Scheduler::has_queue_items(const QuotaInfo& quota, const QueueItems& items) {
  const auto& p = quota.queue_policy;
  const bool known_policy = p == "Priority" || p == "Block" || p == "Intelligent" || p == "Round";
  if (items.queue_policy != (known_policy ? std::string_view(p) : std::string_view("Priority"))) return false;
  const auto& labels = quota.object.metadata.labels;
  const auto parent = labels.find(kParentLabel);
  if (parent == labels.end() ? items.parent.has_value() : items.parent != parent->second) return false;
  return items.enable == quota.enable_annotation;
}

bool Scheduler::manages_queue(const std::string& name) const {
  const auto it = auto_queues_.find(name);
  return it != auto_queues_.end() && it->second.synced && quotas_.known(name) && queues_.count(name) > 0;
}

// A Queue and a quota of one name exist and koordq has not taken the Queue on: adopt it with the
// quota's items as they are; later changes of an item are patched (§2.5).
void Scheduler::adopt_queue(const std::string& name) {
  stir_auto_queues();
  const QuotaInfo* quota = quotas_.find(name);
  if (quota == nullptr || !queues_.count(name)) return;
  AutoQueue& a = auto_queues_[name];
  if (a.in_flight || a.synced) return;
  a.synced = queue_items_of(*quota);
}

// Drops the bookkeeping of a name that has neither quota nor Queue nor a write in flight.
void Scheduler::settle_auto_queue(const std::string& name) {
  stir_auto_queues();
  const auto it = auto_queues_.find(name);
  if (it == auto_queues_.end()) return;
  if (!it->second.in_flight && !quotas_.known(name) && !queues_.count(name)) auto_queues_.erase(it);
}

UsageAnnotations Scheduler::usage_annotations(const std::string& quota) const {
  const QuotaUsage& u = quotas_.usage(quota);
  const std::string used = usage_json(u.used), self = usage_json(u.self_used), children = usage_json(u.children_used);
  // Every reservation counts as guaranteed (§8.3).
  UsageAnnotations out;
  out.set(UsageAnnotations::kUsed, used);
  out.set(UsageAnnotations::kSelfUsed, self);
  out.set(UsageAnnotations::kChildrenUsed, children);
  out.set(UsageAnnotations::kGuaranteedUsed, used);
  out.set(UsageAnnotations::kSelfGuaranteedUsed, self);
  out.set(UsageAnnotations::kChildrenGuaranteedUsed, children);
  return out;
}

schema::QueueItemDetails queue_item_details(const Scheduler& s, const QueueState& q,
                                            const std::set<std::string>* leaving) {
  schema::QueueItemDetails details;
  int64_t position = 0;
  for (const auto& key : q.waiting) {
    if (leaving != nullptr && leaving->count(key.full_name)) continue;
    const UnitState& u = s.units().at(key.full_name);
    ++position;
    schema::QueueItem item;
    item.name = u.object.metadata.name;
    item.namespace_ = u.object.metadata.namespace_;
    if (key.priority != 0) item.priority = key.priority;
    item.position = position;
    auto& list = s.is_active(u) ? details.active : details.backoff;
    if (static_cast<int64_t>(list.size()) < s.config().queue_items_max) list.push_back(std::move(item));
  }
  return details;
}

// ---------------------------------------------------------------------------------------------
// §15.4 metric state

void Scheduler::count_phase(const UnitState& u, Phase phase) {
  const auto& ref = u.object.spec.consumer_ref;
  if (!ref || ref->kind.empty()) return;  // units without a job type are not counted
  ++metrics_.coming[{u.object.metadata.namespace_, ref->kind, phase_name(phase)}];
}

// A namespace gained or lost a unit: track since when it has none (§15.4).
void Scheduler::note_namespace(const std::string& ns, bool has_units) {
  if (has_units) {
    metrics_.namespace_empty_since.erase(ns);
  } else {
    metrics_.namespace_empty_since.try_emplace(ns, now_);
  }
}

void Scheduler::apply_config() {
  // The record before the config record is the journal's last one before this process; with an
  // empty journal, the process start itself.
  relist_cutoff_ = previous_now_ > 0 ? previous_now_ : now_;
  forget_queue_writes();
  stir_all();
}

void Scheduler::apply_relist(schema::ObjectKind resource, bool begin) {
  if (resource != schema::ObjectKind::kQueueUnit) return;
  stir_all();
  relisting_units_ = begin;
  if (begin && !relist_cutoff_) relist_cutoff_ = previous_now_ > 0 ? previous_now_ : now_;
}

}  // namespace koordq::actors
