#include "actors/pages/queue_page.hpp"

namespace koordq::actors::pages {
namespace {

QueueFacts queue_facts(const std::string& name, const QueueState& q) {
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
  (void)name;
  return facts;
}

}  // namespace

QueuePage build_queue_page(const Scheduler& s, const std::string& label, const std::set<std::string>& keys) {
  QueuePage page;
  page.label = label;
  std::map<std::string, size_t> index;  // unit key → its row
  page.units.reserve(keys.size());
  for (const std::string& key : keys) {
    const auto it = s.units().find(key);
    if (it == s.units().end()) continue;
    const UnitState& u = it->second;
    index.emplace_hint(index.end(), key, page.units.size());
    page.units.push_back(unit_row(s, u));
    const UnitRow& row = page.units.back();
    ++page.phase_counts[phase_name(row.phase)];
    if (row.waiting) ++(row.active ? page.active : page.backoff);
    if (row.assumed) ++page.assumed;
    if (row.waiting && u.backoff_until && *u.backoff_until > s.now()) {
      page.changes_at = page.changes_at ? std::min(*page.changes_at, *u.backoff_until) : *u.backoff_until;
    }
    if (!row.waiting) page.not_waiting.push_back(page.units.size() - 1);
  }
  const auto q = s.queues().find(label);
  if (q == s.queues().end()) return page;
  page.queue = queue_facts(label, q->second);
  page.waiting.reserve(q->second.waiting.size());
  for (const OrderKey& key : q->second.waiting) {
    if (const auto it = index.find(key.full_name); it != index.end()) page.waiting.push_back(it->second);
  }
  return page;
}

}  // namespace koordq::actors::pages
