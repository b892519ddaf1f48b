#include "actors/pages/unit_row.hpp"

#include <algorithm>

namespace koordq::actors::pages {

UnitRow unit_row(const Scheduler& s, const UnitState& u) {
  const auto& meta = u.object.metadata;
  const schema::QueueUnitStatus& status = u.status();
  UnitRow row;
  row.key = u.key.full_name;
  row.order = u.key;
  row.namespace_ = meta.namespace_;
  row.name = meta.name;
  row.creation_timestamp = meta.creation_timestamp;
  row.quota = u.quota;
  row.priority = u.object.spec.priority.value_or(0);
  row.request = u.object.spec.request;
  row.resource = u.object.spec.resource;
  row.phase = u.phase;
  if (status.pod_state) {
    row.pods_running = status.pod_state->running;
    row.pods_pending = status.pod_state->pending;
  }
  row.waiting = u.waiting;
  row.assumed = u.assumed;
  row.holds = u.holds;
  row.active = u.waiting && s.is_active(u);
  row.attempts = status.attempts;
  row.failures = u.failures;
  row.backoff_until = u.backoff_until;
  row.last_allocate_time = status.last_allocate_time;
  row.reclaim_requested =
      std::any_of(status.admissions.begin(), status.admissions.end(),
                  [](const schema::Admission& a) { return a.reclaim_state && a.reclaim_state->replicas > 0; });
  return row;
}

}  // namespace koordq::actors::pages
