// SimulatedCluster: the discrete-event loop, timers, restart.
#include "kube/simulator/simulated_cluster.hpp"

#include <algorithm>
#include <utility>

namespace koordq::kube::sim {
namespace {

uint32_t bit(uint8_t kind) {
  return uint32_t{1} << kind;
}

}  // namespace

SimulatedCluster::SimulatedCluster(Scenario scenario, uint64_t seed, int64_t start_time_nanos, int64_t speed_ppm)
    : scenario_(std::move(scenario)),
      seed_(seed),
      speed_ppm_(std::max<int64_t>(speed_ppm, 1)),
      random_(seed),
      clock_(start_time_nanos) {
  schedule(Timer(clock_, TimerKind::kBootstrap));
}

std::vector<TimedEvent> SimulatedCluster::advance_to(int64_t now) {
  while (!timers_.empty() && timers_.begin()->time <= now) {
    const Timer t = *timers_.begin();
    timers_.erase(timers_.begin());
    clock_ = std::max(clock_, t.time);
    fire(t);
  }
  clock_ = std::max(clock_, now);
  return std::exchange(out_, {});
}

std::optional<int64_t> SimulatedCluster::next_event_time() const {
  if (timers_.empty()) return std::nullopt;
  return std::max(timers_.begin()->time, clock_);
}

std::optional<schema::WatchedObject> SimulatedCluster::get(schema::ObjectKind kind, const std::string& ns,
                                                           const std::string& name) const {
  return store_.get(kind, object_key(ns, name));
}

void SimulatedCluster::restore(const std::vector<schema::WatchedObject>& objects, int64_t now,
                               uint64_t last_resource_version) {
  store_.clear();
  jobs_.clear();
  class_jobs_.clear();
  timers_.clear();
  out_.clear();
  for (const auto& o : objects) store_.adopt(o);
  store_.raise_revision(last_resource_version);
  clock_ = now;
  random_ = SimRandom(mix_seed(seed_, static_cast<uint64_t>(now), store_.revision()));
  schedule(Timer(clock_, TimerKind::kBootstrap));
  for (const auto& [key, unit] : store_.units()) {
    const auto job = jobs_.emplace(key, new_job(unit)).first;
    if (job->second.job_class) class_jobs_[*job->second.job_class].insert(key);
  }
  for (auto& [key, job] : jobs_) {
    const auto& unit = *store_.unit(key);
    const JobClass* c = class_of(job);
    const bool terminal = actors::is_terminal(actors::effective_phase(unit.status.phase));
    if (c != nullptr && !terminal && !unit.spec.active.value_or(true)) {
      schedule_for(key, job, TimerKind::kReactivate, draw_interval(c->reactivate_after));
    }
  }
  for (const auto& [key, job] : jobs_) react(key);
}

int64_t SimulatedCluster::scaled(int64_t nanos) const {
  const __int128 v = static_cast<__int128>(nanos) * kMillion / speed_ppm_;
  return static_cast<int64_t>(std::min<__int128>(v, INT64_MAX / 2));
}

void SimulatedCluster::schedule(Timer t) {
  t.order = timer_order_++;
  timers_.insert(std::move(t));
}

void SimulatedCluster::schedule_for(const std::string& key, JobState& job, TimerKind kind, int64_t delay) {
  const uint32_t b = bit(static_cast<uint8_t>(kind));
  if (job.scheduled & b) return;
  job.scheduled |= b;
  schedule(Timer(clock_ + delay, kind, key, job.uid, job.epoch));
}

const JobClass* SimulatedCluster::class_of(const JobState& job) const {
  return job.job_class ? &scenario_.job_classes[*job.job_class] : nullptr;
}

void SimulatedCluster::fire(const Timer& t) {
  switch (t.kind) {
    case TimerKind::kBootstrap:
      bootstrap();
      return;
    case TimerKind::kArrival:
      arrive(t.job_class);
      return;
    default:
      break;
  }
  auto it = jobs_.find(t.unit);
  if (it == jobs_.end() || it->second.uid != t.uid) return;
  JobState& job = it->second;
  if (t.kind == TimerKind::kCheck) {
    job.checks_scheduled.erase(t.check);
  } else {
    job.scheduled &= ~bit(static_cast<uint8_t>(t.kind));
  }
  const schema::QueueUnit* current = store_.unit(t.unit);
  if (current == nullptr) return;
  if (t.kind == TimerKind::kDelete) {
    if (!actors::is_terminal(actors::effective_phase(current->status.phase))) return;
    out_.push_back(store_.remove(schema::ObjectKind::kQueueUnit, t.unit, clock_));
    if (it->second.job_class) class_jobs_[*it->second.job_class].erase(it->first);
    jobs_.erase(it);
    ++stats_.deleted;
    return;
  }
  const schema::QueueUnit before = *current;
  schema::QueueUnit after = before;
  on_unit_timer(t, job, after);
  commit(before, std::move(after));
  react(t.unit);
}

void SimulatedCluster::commit(const schema::QueueUnit& before, schema::QueueUnit after) {
  if (after == before) return;
  out_.push_back(store_.update(std::move(after), clock_));
}

SimulatedCluster::JobState SimulatedCluster::new_job(const schema::QueueUnit& unit) {
  JobState job;
  job.uid = unit.metadata.uid;
  const auto label = unit.metadata.labels.find(kJobClassLabel);
  for (size_t i = 0; label != unit.metadata.labels.end() && i < scenario_.job_classes.size(); ++i) {
    if (scenario_.job_classes[i].name == label->second) job.job_class = i;
  }
  const JobClass* c = class_of(job);
  constexpr int64_t kFallbackRunTime = 60'000'000'000;
  job.run_time = c != nullptr ? random_.duration(c->run_time) : kFallbackRunTime;
  job.fails = c != nullptr && random_.chance(c->failure_ppm);
  return job;
}

}  // namespace koordq::kube::sim
