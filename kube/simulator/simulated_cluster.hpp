// The in-process cluster of `serve --simulate` (design.md §3, behaviour.md §21): it plays the API
// server (objects, one global resourceVersion, watch events, the answers to koordq's writes) and
// the components around koordq (the job extensions, admission-check controllers, users creating
// and deactivating jobs). Pure and seeded: no threads, no clock, no I/O. Time is whatever the
// caller passes; everything it does up to a time comes back as watch events stamped with the
// time they happened, so a virtual clock can jump from one next_event_time() to the next.
//
// The job extension it plays (docs/scenario.md, "The simulated cluster"):
//  - admitted (Dequeued, or a top-up): after a start delay the pods run, possibly in steps;
//    admissions[].running and podState follow; once every admitted replica runs, phase Running;
//  - after the job's run time in Running: Succeed, or Failed with the class's probability;
//    a terminal unit is deleted after a while;
//  - a start that times out: TimeoutBackoff with admissions cleared, later Enqueued again;
//  - reclaimState: the marked replicas are given back; a unit left with no replica goes back to
//    Enqueued (`Enqueued after preempted`), otherwise it keeps its phase and waits for a top-up;
//  - spec.active=false: the job is suspended, admissions cleared, phase Enqueued (§12);
//  - the maximum-execution-time message on a Running unit: the job is stopped as Failed;
//  - admission checks of a Reserved unit: marked Ready (or Rejected / Retry) after a delay.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/core/decision.hpp"
#include "actors/core/scheduler.hpp"
#include "kube/simulator/cluster_store.hpp"
#include "kube/simulator/scenario.hpp"
#include "kube/simulator/sim_random.hpp"

namespace koordq::kube::sim {

// The API server's answers to one decision's writes (status patch, spec.queue patch, Queue write,
// then each event, as actors::WriteKind numbers them) and the watch events those writes cause.
struct WriteResult {
  std::vector<actors::Outcome> outcomes;
  std::vector<TimedEvent> events;
};

struct Stats {
  uint64_t arrivals = 0;          // QueueUnits created
  uint64_t arrivals_skipped = 0;  // not created: the class had maxUnits live units
  uint64_t admissions = 0;        // status writes that raised admitted replicas
  uint64_t started = 0;           // transitions into Running
  uint64_t succeeded = 0;
  uint64_t failed = 0;
  uint64_t deleted = 0;
  uint64_t reclaims = 0;  // units that gave replicas back
  uint64_t reclaimed_replicas = 0;
  uint64_t start_timeouts = 0;
  uint64_t deactivations = 0;
  uint64_t reactivations = 0;
  uint64_t suspensions = 0;
  uint64_t evictions = 0;  // stopped after the maximum execution time
  uint64_t checks_ready = 0;
  uint64_t checks_rejected = 0;
  uint64_t checks_retry = 0;
  uint64_t status_writes = 0;  // successful status and spec.queue patches
  uint64_t queue_writes = 0;   // successful Queue creates, patches, status writes and deletes
  uint64_t events_recorded = 0;
  uint64_t conflicts_injected = 0;
  uint64_t precondition_conflicts = 0;
  uint64_t not_found = 0;
};

class SimulatedCluster {
 public:
  // speed_ppm: --simulate-speed in parts per million (1x = 1'000'000); it divides every interval
  // of the simulator's own. The scenario's quotas and queues are created at start_time_nanos.
  SimulatedCluster(Scenario scenario, uint64_t seed, int64_t start_time_nanos, int64_t speed_ppm = kMillion);

  // Everything the cluster does after the last call up to `now`, as watch events in time order.
  std::vector<TimedEvent> advance_to(int64_t now);
  // When the cluster next does something on its own; never empty while a class has arrivals.
  std::optional<int64_t> next_event_time() const;

  // The writes of one durable decision at `now`, with the API server's semantics: a status patch
  // whose resourceVersion precondition fails, or that the scenario's conflict injection picks,
  // answers 409; a write to a missing object 404; a create of an existing Queue 409
  // (AlreadyExists). Events are accepted and counted, not watched. Whatever the cluster had due
  // up to `now` happens first, and its events come first in the result.
  WriteResult apply_decision(uint64_t round_seq, uint32_t decision_index, const actors::Decision& d, int64_t now);

  // Restart over an existing journal: adopt these objects (its latest state) as the cluster,
  // continue at `now` with revisions above both theirs and `last_resource_version`, and create
  // the scenario's quotas and queues that are missing. Randomness is reseeded from the seed and
  // the restart point, so a restart never repeats the names and uids of the first run.
  void restore(const std::vector<schema::WatchedObject>& objects, int64_t now, uint64_t last_resource_version = 0);

  // What a LIST or a GET answers now.
  std::vector<schema::WatchedObject> list(schema::ObjectKind kind) const { return store_.list(kind); }
  std::optional<schema::WatchedObject> get(schema::ObjectKind kind, const std::string& ns,
                                           const std::string& name) const;
  std::string resource_version() const { return std::to_string(store_.revision()); }

  int64_t now() const { return clock_; }
  const Scenario& scenario() const { return scenario_; }
  const Stats& stats() const { return stats_; }

 private:
  enum class TimerKind : uint8_t {
    kBootstrap,
    kArrival,
    kPodsStart,
    kFinish,
    kStartTimeout,
    kRequeue,
    kReclaim,
    kSuspend,
    kEvict,
    kDelete,
    kCheck,
    kDeactivate,
    kReactivate,
  };

  struct Timer {
    Timer(int64_t at, TimerKind k) : time(at), kind(k) {}
    Timer(int64_t at, TimerKind k, std::string unit_key, std::string unit_uid, uint64_t unit_epoch = 0)
        : time(at), kind(k), unit(std::move(unit_key)), uid(std::move(unit_uid)), epoch(unit_epoch) {}

    int64_t time = 0;
    uint64_t order = 0;  // scheduling order: ties at one time fire first-scheduled first
    TimerKind kind = TimerKind::kBootstrap;
    std::string unit;  // "<ns>/<name>"
    std::string uid;
    uint64_t epoch = 0;
    size_t job_class = 0;
    std::string check;

    bool operator<(const Timer& o) const { return time != o.time ? time < o.time : order < o.order; }
  };

  struct JobState {
    std::string uid;
    std::optional<size_t> job_class;
    int64_t run_time = 0;
    bool fails = false;
    uint64_t epoch = 0;  // bumped when a run is abandoned, so its pending finish is ignored
    std::optional<uint64_t> start_drawn_epoch;
    bool start_times_out = false;
    std::optional<int64_t> running_since;
    uint32_t scheduled = 0;  // TimerKind bits with a timer pending
    std::set<std::string> checks_scheduled;
  };

  // simulated_cluster.cpp
  int64_t scaled(int64_t nanos) const;
  int64_t draw_interval(const DurationDistribution& d) { return scaled(random_.duration(d)); }
  void schedule(Timer t);
  void schedule_for(const std::string& key, JobState& job, TimerKind kind, int64_t delay);
  void fire(const Timer& t);
  void commit(const schema::QueueUnit& before, schema::QueueUnit after);
  const JobClass* class_of(const JobState& job) const;

  // arrivals.cpp
  void bootstrap();
  void schedule_arrival(size_t job_class);
  void arrive(size_t job_class);
  schema::QueueUnit new_unit(const JobClass& c, const std::string& ns, const std::string& name);
  JobState new_job(const schema::QueueUnit& unit);

  // job_extension.cpp
  void react(const std::string& key);
  void on_unit_timer(const Timer& t, JobState& job, schema::QueueUnit& unit);
  void start_pods(schema::QueueUnit& unit);
  void finish(JobState& job, schema::QueueUnit& unit);
  void time_out_start(JobState& job, schema::QueueUnit& unit);
  void give_back(JobState& job, schema::QueueUnit& unit);
  void suspend(JobState& job, schema::QueueUnit& unit);
  void evict(JobState& job, schema::QueueUnit& unit);
  void mark_check(const std::string& check, schema::QueueUnit& unit);

  // decision_writes.cpp
  struct Answer {
    actors::OutcomeResult result = actors::OutcomeResult::kSuccess;
    int32_t http_code = 200;
    std::string resource_version;
  };
  Answer patch_status(const actors::Target& target, const actors::StatusPatch& patch);
  Answer patch_spec_queue(const actors::Target& target, const std::string& queue);
  Answer write_queue(const actors::Target& target, const actors::QueueWrite& write);
  Answer record_event();

  Scenario scenario_;
  uint64_t seed_;
  int64_t speed_ppm_;
  SimRandom random_;
  int64_t clock_;
  ClusterStore store_;
  std::map<std::string, JobState> jobs_;  // by unit key
  // The keys of jobs_ by job class: an arrival counts its class's live units among these, not
  // among every job of the cluster.
  std::map<size_t, std::set<std::string>> class_jobs_;
  std::set<Timer> timers_;
  uint64_t timer_order_ = 0;
  std::vector<TimedEvent> out_;
  Stats stats_;
};

}  // namespace koordq::kube::sim
