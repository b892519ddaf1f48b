#include "actors/pages/queue_page.hpp"

#include <algorithm>

namespace koordq::actors::pages {
namespace {

QueueFacts queue_facts(const QueueState& q) {
  QueueFacts facts;
  facts.name = q.object.metadata.name;
  facts.namespace_ = q.object.metadata.namespace_;
  facts.creation_timestamp = q.object.metadata.creation_timestamp;
  facts.policy = q.object.spec.queue_policy;
  facts.running = q.settings.policy != QueuePolicy::kUnsupported;
  facts.max_depth = q.settings.max_depth;
  facts.wait_for_pods_running = q.settings.wait_for_pods_running;
  facts.preemption_enabled = q.settings.preemption_enabled;
  facts.preempting = !q.victims.empty();
  if (q.cursor) facts.cursor = q.cursor->full_name;
  facts.last_attempt = q.last_attempt;
  facts.blocked = q.blocked;
  return facts;
}

// Whether `row` still shows `u`, given that no record changed the unit: only what a round or the
// passing time changes on units it does not name is compared.
bool still_shows(const Scheduler& s, const UnitState& u, const UnitRow& row) {
  return row.backoff_until == u.backoff_until && row.waiting == u.waiting && row.assumed == u.assumed &&
         row.active == (u.waiting && s.is_active(u)) && row.holds == u.holds && row.phase == u.phase &&
         row.failures == u.failures && row.quota == u.quota;
}

}  // namespace

bool QueuePage::operator==(const QueuePage& other) const {
  return static_cast<const QueueSummary&>(*this) == other &&
         std::equal(units.begin(), units.end(), other.units.begin(), other.units.end(),
                    [](const auto& a, const auto& b) { return *a == *b; }) &&
         waiting == other.waiting && not_waiting == other.not_waiting && changes_at == other.changes_at;
}

QueuePage build_queue_page(const Scheduler& s, const std::string& label, const std::set<std::string>& keys,
                           const QueuePage* previous, const std::set<std::string>* changed) {
  QueuePage page;
  page.label = label;
  page.units.reserve(keys.size());
  size_t before = 0;  // the walk along `previous`'s rows, which are in key order too
  for (const std::string& key : keys) {
    const auto it = s.units().find(key);
    if (it == s.units().end()) continue;
    const UnitState& u = it->second;
    std::shared_ptr<const UnitRow> row;
    if (previous != nullptr && changed != nullptr && !changed->count(key)) {
      while (before < previous->units.size() && previous->units[before]->key < key) ++before;
      if (before < previous->units.size() && previous->units[before]->key == key &&
          still_shows(s, u, *previous->units[before])) {
        row = previous->units[before];
      }
    }
    if (!row) row = std::make_shared<const UnitRow>(unit_row(s, u));
    ++page.phase_counts[phase_name(row->phase)];
    if (row->waiting) ++(row->active ? page.active : page.backoff);
    if (row->assumed) ++page.assumed;
    if (row->waiting && u.backoff_until && *u.backoff_until > s.now()) {
      page.changes_at = page.changes_at ? std::min(*page.changes_at, *u.backoff_until) : *u.backoff_until;
    }
    if (!row->waiting) page.not_waiting.push_back(page.units.size());
    page.units.push_back(std::move(row));
  }
  const auto q = s.queues().find(label);
  if (q == s.queues().end()) return page;
  page.queue = queue_facts(q->second);
  page.waiting.reserve(q->second.waiting.size());
  const auto by_key = [](const std::shared_ptr<const UnitRow>& row, const std::string& key) { return row->key < key; };
  for (const OrderKey& key : q->second.waiting) {
    const auto it = std::lower_bound(page.units.begin(), page.units.end(), key.full_name, by_key);
    if (it != page.units.end() && (*it)->key == key.full_name) page.waiting.push_back(it - page.units.begin());
  }
  return page;
}

namespace {

void count_unit(const Scheduler& s, const UnitState& u, QueueSummary& summary) {
  ++summary.phase_counts[phase_name(u.phase)];
  if (u.waiting) ++(s.is_active(u) ? summary.active : summary.backoff);
  if (u.assumed) ++summary.assumed;
}

}  // namespace

QueueSummary summarize_queue(const Scheduler& s, const std::string& label, const std::set<std::string>& keys) {
  QueueSummary summary;
  summary.label = label;
  for (const std::string& key : keys) {
    if (const auto it = s.units().find(key); it != s.units().end()) count_unit(s, it->second, summary);
  }
  if (const auto q = s.queues().find(label); q != s.queues().end()) summary.queue = queue_facts(q->second);
  return summary;
}

std::map<std::string, QueueSummary, std::less<>> summarize_queues(const Scheduler& s) {
  std::map<std::string, QueueSummary, std::less<>> out;
  QueueSummary* last = nullptr;  // units of one label often follow each other
  for (const auto& [key, u] : s.units()) {
    if (last == nullptr || last->label != u.quota) {
      auto [it, inserted] = out.try_emplace(u.quota);
      if (inserted) it->second.label = u.quota;
      last = &it->second;
    }
    count_unit(s, u, *last);
  }
  for (const auto& [name, q] : s.queues()) {
    auto [it, inserted] = out.try_emplace(name);
    if (inserted) it->second.label = name;
    it->second.queue = queue_facts(q);
  }
  return out;
}

}  // namespace koordq::actors::pages
