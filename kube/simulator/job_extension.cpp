// SimulatedCluster: the job extensions and admission-check controllers (behaviour.md §5, §10–§12).
// react() looks at a unit after every change and schedules what its job does next; the timer
// handlers look again when they fire, so a timer made stale by a later change does nothing.
#include <algorithm>

#include "actors/core/status_change.hpp"
#include "actors/core/unit_facts.hpp"
#include "kube/simulator/simulated_cluster.hpp"

namespace koordq::kube::sim {
namespace {

using actors::Phase;

constexpr int64_t kHalf = kMillion / 2;

int64_t reclaim_of(const schema::Admission& a) {
  return a.reclaim_state ? a.reclaim_state->replicas : 0;
}

// Replicas admitted and not given back whose pods do not run yet.
int64_t startable(const schema::Admission& a) {
  return std::max<int64_t>(a.replicas - reclaim_of(a) - a.running, 0);
}

int64_t startable(const schema::QueueUnit& u) {
  int64_t n = 0;
  for (const auto& a : u.status.admissions) n += startable(a);
  return n;
}

void refresh_pod_state(schema::QueueUnitStatus& s) {
  schema::PodState p;
  for (const auto& a : s.admissions) {
    p.running += a.running;
    p.pending += std::max<int64_t>(a.replicas - a.running, 0);
  }
  s.pod_state = p;
}

void stop_pods(schema::QueueUnitStatus& s) {
  for (auto& a : s.admissions) a.running = 0;
  s.pod_state = schema::PodState{};
}

Phase phase_of(const schema::QueueUnit& u) {
  return actors::effective_phase(u.status.phase);
}

}  // namespace

void SimulatedCluster::react(const std::string& key) {
  const schema::QueueUnit* unit = store_.unit(key);
  const auto it = jobs_.find(key);
  if (unit == nullptr || it == jobs_.end()) return;
  JobState& job = it->second;
  const JobClass* c = class_of(job);
  const auto& timings = scenario_.job_extension;
  const Phase phase = phase_of(*unit);
  if (actors::is_terminal(phase)) {
    schedule_for(key, job, TimerKind::kDelete, draw_interval(timings.delete_after));
    return;
  }
  if (!unit->spec.active.value_or(true)) {
    if (actors::holds_quota(*unit) || !unit->status.admissions.empty()) {
      schedule_for(key, job, TimerKind::kSuspend, draw_interval(timings.suspend_delay));
    }
    return;
  }
  if (phase == Phase::kTimeoutBackoff) {
    schedule_for(key, job, TimerKind::kRequeue, draw_interval(timings.timeout_backoff));
    return;
  }
  if (phase == Phase::kReserved) {
    for (const auto& check : unit->status.admission_checks) {
      const auto controller = std::find_if(scenario_.admission_checks.begin(), scenario_.admission_checks.end(),
                                           [&](const AdmissionCheckController& a) { return a.name == check.name; });
      if (check.state != "Pending" || controller == scenario_.admission_checks.end()) continue;
      if (!job.checks_scheduled.insert(check.name).second) continue;
      Timer t(clock_ + draw_interval(controller->ready_after), TimerKind::kCheck, key, job.uid);
      t.check = check.name;
      schedule(std::move(t));
    }
  }
  if (actors::reclaim_requested(*unit)) {
    schedule_for(key, job, TimerKind::kReclaim, draw_interval(timings.reclaim_delay));
  }
  if (phase == Phase::kRunning && !job.running_since) {
    job.running_since = clock_;
    ++stats_.started;
    schedule(Timer(clock_ + scaled(job.run_time), TimerKind::kFinish, key, job.uid, job.epoch));
  }
  if ((phase == Phase::kDequeued || phase == Phase::kRunning) && startable(*unit) > 0) {
    if (job.start_drawn_epoch != job.epoch) {
      job.start_drawn_epoch = job.epoch;
      job.start_times_out = c != nullptr && random_.chance(c->start_timeout_ppm);
    }
    if (job.start_times_out) {
      schedule_for(key, job, TimerKind::kStartTimeout, draw_interval(timings.start_timeout));
    } else {
      const DurationDistribution& delay = c != nullptr && c->start_delay ? *c->start_delay : timings.start_delay;
      schedule_for(key, job, TimerKind::kPodsStart, draw_interval(delay));
    }
  }
  if (phase == Phase::kRunning && unit->status.message == actors::kMessageMaxExec) {
    schedule_for(key, job, TimerKind::kEvict, draw_interval(timings.evict_delay));
  }
}

void SimulatedCluster::on_unit_timer(const Timer& t, JobState& job, schema::QueueUnit& unit) {
  const Phase phase = phase_of(unit);
  if (actors::is_terminal(phase)) return;
  const bool active = unit.spec.active.value_or(true);
  switch (t.kind) {
    case TimerKind::kPodsStart:
      if (active && (phase == Phase::kDequeued || phase == Phase::kRunning)) start_pods(unit);
      return;
    case TimerKind::kFinish:
      if (t.epoch == job.epoch && phase == Phase::kRunning) finish(job, unit);
      return;
    case TimerKind::kStartTimeout:
      if (active && (phase == Phase::kDequeued || phase == Phase::kRunning) && startable(unit) > 0) {
        time_out_start(job, unit);
      }
      return;
    case TimerKind::kRequeue:
      if (phase == Phase::kTimeoutBackoff) {
        unit.status.phase = "Enqueued";
        unit.status.message = "Enqueued because backoff timeout";
      }
      return;
    case TimerKind::kReclaim:
      if (actors::reclaim_requested(unit)) give_back(job, unit);
      return;
    case TimerKind::kSuspend:
      if (!active) suspend(job, unit);
      return;
    case TimerKind::kEvict:
      if (phase == Phase::kRunning && unit.status.message == actors::kMessageMaxExec) evict(job, unit);
      return;
    case TimerKind::kCheck:
      if (phase == Phase::kReserved) mark_check(t.check, unit);
      return;
    case TimerKind::kDeactivate:
      if (active) {
        unit.spec.active = false;
        ++stats_.deactivations;
        if (const JobClass* c = class_of(job)) {
          schedule_for(t.unit, job, TimerKind::kReactivate, draw_interval(c->reactivate_after));
        }
      }
      return;
    case TimerKind::kReactivate:
      if (!active) {
        unit.spec.active = true;
        ++stats_.reactivations;
      }
      return;
    default:
      return;
  }
}

void SimulatedCluster::start_pods(schema::QueueUnit& unit) {
  const int64_t waiting = startable(unit);
  if (waiting <= 0) return;
  // Pods come up all at once or half at a time, as nodes and images allow.
  int64_t starting = waiting == 1 || random_.chance(kHalf) ? waiting : (waiting + 1) / 2;
  for (auto& a : unit.status.admissions) {
    const int64_t n = std::min(startable(a), starting);
    a.running += n;
    starting -= n;
  }
  refresh_pod_state(unit.status);
  if (phase_of(unit) == Phase::kDequeued && actors::is_all_running(unit)) {
    unit.status.phase = "Running";
    unit.status.message = "Running";
  }
}

void SimulatedCluster::finish(JobState& job, schema::QueueUnit& unit) {
  unit.status.phase = job.fails ? "Failed" : "Succeed";
  unit.status.message = job.fails ? "Failed" : "Succeeded";
  for (auto& a : unit.status.admissions) a.reclaim_state.reset();
  stop_pods(unit.status);
  job.running_since.reset();
  ++(job.fails ? stats_.failed : stats_.succeeded);
}

void SimulatedCluster::time_out_start(JobState& job, schema::QueueUnit& unit) {
  unit.status.phase = "TimeoutBackoff";
  unit.status.message = "Backoff due to running timeout";
  unit.status.admissions.clear();
  unit.status.pod_state = schema::PodState{};
  ++job.epoch;
  job.running_since.reset();
  ++stats_.start_timeouts;
}

void SimulatedCluster::give_back(JobState& job, schema::QueueUnit& unit) {
  auto& admissions = unit.status.admissions;
  for (auto& a : admissions) {
    const int64_t r = std::min(reclaim_of(a), a.replicas);
    a.replicas -= r;
    a.running = std::min(a.running, a.replicas);
    a.reclaim_state.reset();
    stats_.reclaimed_replicas += static_cast<uint64_t>(r);
  }
  std::erase_if(admissions, [](const schema::Admission& a) { return a.replicas == 0; });
  ++stats_.reclaims;
  if (admissions.empty()) {
    unit.status.phase = "Enqueued";
    unit.status.message = "Enqueued after preempted";
    unit.status.pod_state = schema::PodState{};
    ++job.epoch;
    job.running_since.reset();
    return;
  }
  refresh_pod_state(unit.status);
  if (phase_of(unit) == Phase::kDequeued && actors::is_all_running(unit)) {
    unit.status.phase = "Running";
    unit.status.message = "Running";
  }
}

void SimulatedCluster::suspend(JobState& job, schema::QueueUnit& unit) {
  // The message stays: koordq's deactivation notice is what an operator should see (§12).
  unit.status.phase = "Enqueued";
  unit.status.admissions.clear();
  unit.status.pod_state = schema::PodState{};
  ++job.epoch;
  job.running_since.reset();
  ++stats_.suspensions;
}

void SimulatedCluster::evict(JobState& job, schema::QueueUnit& unit) {
  unit.status.phase = "Failed";
  unit.status.message = "Failed";
  stop_pods(unit.status);
  ++job.epoch;
  job.running_since.reset();
  ++stats_.evictions;
}

void SimulatedCluster::mark_check(const std::string& check, schema::QueueUnit& unit) {
  auto& checks = unit.status.admission_checks;
  const auto it = std::find_if(checks.begin(), checks.end(), [&](const auto& c) { return c.name == check; });
  if (it == checks.end() || it->state != "Pending") return;
  const auto controller = std::find_if(scenario_.admission_checks.begin(), scenario_.admission_checks.end(),
                                       [&](const AdmissionCheckController& a) { return a.name == check; });
  const int64_t draw = random_.uniform(0, kMillion - 1);
  if (draw < controller->reject_ppm) {
    it->state = "Rejected";
    it->message = check + " rejected the workload";
    ++stats_.checks_rejected;
  } else if (draw < controller->reject_ppm + controller->retry_ppm) {
    it->state = "Retry";
    it->message = check + " asks to retry later";
    ++stats_.checks_retry;
  } else {
    it->state = "Ready";
    it->message.clear();
    ++stats_.checks_ready;
  }
  it->last_transition_time = whole_seconds(clock_);
}

}  // namespace koordq::kube::sim
