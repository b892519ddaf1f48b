#include "replay/state_diff.hpp"

namespace koordq::replay {
namespace {

class Diff {
 public:
  explicit Diff(std::vector<std::string>& out) : out_(out) {}

  template <class T>
  void field(const std::string& where, const char* name, const T& a, const T& b) {
    if (!(a == b)) out_.push_back(where + ": " + name);
  }

 private:
  std::vector<std::string>& out_;
};

void compare_units(Diff& diff, const std::string& key, const actors::UnitState& a, const actors::UnitState& b) {
  const std::string where = "unit " + key;
#define KOORDQ_UNIT_FIELD(f) diff.field(where, #f, a.f, b.f)
  KOORDQ_UNIT_FIELD(object);
  KOORDQ_UNIT_FIELD(pending_status);
  KOORDQ_UNIT_FIELD(pending_written_rv);
  KOORDQ_UNIT_FIELD(pending_decision_seq);
  KOORDQ_UNIT_FIELD(landed_status);
  KOORDQ_UNIT_FIELD(landed_rv);
  KOORDQ_UNIT_FIELD(quota);
  KOORDQ_UNIT_FIELD(phase);
  KOORDQ_UNIT_FIELD(holds);
  KOORDQ_UNIT_FIELD(charge);
  KOORDQ_UNIT_FIELD(waiting);
  KOORDQ_UNIT_FIELD(assumed);
  KOORDQ_UNIT_FIELD(key);
  KOORDQ_UNIT_FIELD(failures);
  KOORDQ_UNIT_FIELD(backoff_until);
  KOORDQ_UNIT_FIELD(attempts);
  diff.field(where, "capacity_changed", a.capacity_changed_since_attempt(), b.capacity_changed_since_attempt());
  KOORDQ_UNIT_FIELD(unmapped_since);
  KOORDQ_UNIT_FIELD(queue_not_found_reported);
  KOORDQ_UNIT_FIELD(enqueued_at);
  KOORDQ_UNIT_FIELD(dequeued_once);
  KOORDQ_UNIT_FIELD(deactivation_due);
  KOORDQ_UNIT_FIELD(running_since);
  KOORDQ_UNIT_FIELD(max_exec_reported);
  KOORDQ_UNIT_FIELD(phase_event_due);
  KOORDQ_UNIT_FIELD(observed_phase);
  KOORDQ_UNIT_FIELD(spec_queue_sent);
  KOORDQ_UNIT_FIELD(spec_queue_sent_seq);
  KOORDQ_UNIT_FIELD(invalid_quantities);
  KOORDQ_UNIT_FIELD(invalid_reported);
  KOORDQ_UNIT_FIELD(indexed_in);  // derived: a restore rebuilds it
#undef KOORDQ_UNIT_FIELD
}

void compare_queues(Diff& diff, const std::string& name, const actors::QueueState& a, const actors::QueueState& b) {
  const std::string where = "queue " + name;
#define KOORDQ_QUEUE_FIELD(f) diff.field(where, #f, a.f, b.f)
  KOORDQ_QUEUE_FIELD(object);
  KOORDQ_QUEUE_FIELD(settings);
  KOORDQ_QUEUE_FIELD(waiting);
  KOORDQ_QUEUE_FIELD(cursor);
  KOORDQ_QUEUE_FIELD(last_reset);
  KOORDQ_QUEUE_FIELD(last_attempt);
  KOORDQ_QUEUE_FIELD(last_tried);
  KOORDQ_QUEUE_FIELD(last_activity);
  KOORDQ_QUEUE_FIELD(members);
  KOORDQ_QUEUE_FIELD(blocked);
  KOORDQ_QUEUE_FIELD(victims);
  KOORDQ_QUEUE_FIELD(add_queue_fail_reported);
  KOORDQ_QUEUE_FIELD(invalid_interval_reported);
  KOORDQ_QUEUE_FIELD(last_published);
  KOORDQ_QUEUE_FIELD(next_publish);
  KOORDQ_QUEUE_FIELD(usage_written);
  KOORDQ_QUEUE_FIELD(usage_next);
  KOORDQ_QUEUE_FIELD(usage_seq);
  KOORDQ_QUEUE_FIELD(usage_index);
  KOORDQ_QUEUE_FIELD(housekeeping);  // derived: a restore rebuilds it
  KOORDQ_QUEUE_FIELD(not_waiting);   // derived likewise
  KOORDQ_QUEUE_FIELD(backoff);       // derived likewise
  KOORDQ_QUEUE_FIELD(timer);
#undef KOORDQ_QUEUE_FIELD
}

template <class Map, class Compare>
void compare_maps(std::vector<std::string>& out, const char* what, const Map& a, const Map& b, Compare compare) {
  for (const auto& [key, value] : a) {
    const auto it = b.find(key);
    if (it == b.end()) {
      out.push_back(std::string(what) + " " + key + ": only in the first state");
    } else {
      compare(key, value, it->second);
    }
  }
  for (const auto& [key, value] : b) {
    if (!a.count(key)) out.push_back(std::string(what) + " " + key + ": only in the second state");
  }
}

}  // namespace

std::vector<std::string> state_differences(const actors::Scheduler& a, const actors::Scheduler& b) {
  std::vector<std::string> out;
  Diff diff(out);
  diff.field("scheduler", "now", a.now(), b.now());
  diff.field("scheduler", "config", a.config(), b.config());
  diff.field("scheduler", "quotas", a.quotas(), b.quotas());
  diff.field("scheduler", "auto_queues", a.auto_queues(), b.auto_queues());
  diff.field("scheduler", "metrics", a.metrics(), b.metrics());
  diff.field("scheduler", "previous_now", a.previous_now(), b.previous_now());
  diff.field("scheduler", "relist_cutoff", a.relist_cutoff(), b.relist_cutoff());
  diff.field("scheduler", "relisting_units", a.relisting_units(), b.relisting_units());
  diff.field("scheduler", "queue_timers", a.queue_timers(), b.queue_timers());  // derived indexes
  diff.field("scheduler", "unmapped_pending", a.unmapped_pending(), b.unmapped_pending());
  diff.field("scheduler", "execution_limited", a.execution_limited(), b.execution_limited());
  compare_maps(out, "unit", a.units(), b.units(),
               [&](const std::string& k, const auto& x, const auto& y) { compare_units(diff, k, x, y); });
  compare_maps(out, "queue", a.queues(), b.queues(),
               [&](const std::string& k, const auto& x, const auto& y) { compare_queues(diff, k, x, y); });
  return out;
}

std::string describe_differences(const std::vector<std::string>& differences) {
  std::string out;
  for (const auto& d : differences) out += (out.empty() ? "" : "; ") + d;
  return out;
}

}  // namespace koordq::replay
