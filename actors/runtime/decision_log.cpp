#include "actors/runtime/decision_log.hpp"

#include <variant>

#include "base/log.hpp"

namespace koordq::actors::runtime {
namespace {

std::string unit_name(const UnitRef& u) {
  return u.namespace_ + "/" + u.name;
}

std::string queue_of(const Decision& d) {
  if (const auto* u = std::get_if<UnitRef>(&d.target)) return u->queue;
  return std::get<QueueRef>(d.target).name;
}

}  // namespace

void log_changed_queue_settings(const Scheduler& s, LoggedQueueSettings& logged_settings) {
  if (logged_settings.version == s.settings_version()) return;
  logged_settings.version = s.settings_version();
  auto& logged = logged_settings.by_queue;
  for (const auto& [name, q] : s.queues()) {
    auto [known, constructed] = logged.try_emplace(name, q.settings);
    if (!constructed && known->second == q.settings) continue;
    known->second = q.settings;
    log_queue_settings(name, q.settings, constructed);
  }
  std::erase_if(logged, [&](const auto& entry) { return !s.queues().count(entry.first); });
}

void log_queue_settings(const std::string& queue, const QueueSettings& s, bool constructed) {
  KQ_V(1)
  ("queue {} {}: policy {}, wait-for-pods-running {}, max-depth {}, preemption {}", queue,
   constructed ? "constructed" : "changed", s.policy_text.empty() ? "Priority" : s.policy_text, s.wait_for_pods_running,
   s.max_depth < 0 ? std::string("unlimited") : std::to_string(s.max_depth),
   s.preemption_enabled ? "enabled" : "disabled");
}

void log_round(uint64_t round_seq, const std::vector<Decision>& decisions) {
  for (size_t i = 0; i < decisions.size(); ++i) {
    const Decision& d = decisions[i];
    const auto* unit = std::get_if<UnitRef>(&d.target);
    // §20 level 3: every attempt with its unit, queue, outcome and message.
    KQ_V(3)
    ("round {} decision {} ({}) {}{}: {}", round_seq, i, decision_kind_name(d.kind),
     unit != nullptr ? unit_name(*unit) + " in queue " : std::string("queue "), queue_of(d), d.reason);
    if (unit == nullptr || d.victims.empty()) continue;
    if (d.kind == DecisionKind::kPreempt) {
      KQ_V(2)
      ("preemption in queue {}: {} marked for reclaim ({} replicas): {}", queue_of(d), unit_name(*unit),
       d.victims.front().replicas, d.reason);
      continue;
    }
    std::string victims;
    for (const auto& v : d.victims) {
      if (!victims.empty()) victims += ", ";
      victims += unit_name(v.unit) + " (" + std::to_string(v.replicas) + " replicas)";
    }
    KQ_V(1)("preemption round in queue {} for {}: victims [{}]", queue_of(d), unit_name(*unit), victims);
  }
}

}  // namespace koordq::actors::runtime
