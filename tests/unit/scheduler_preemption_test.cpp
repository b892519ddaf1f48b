// Wait-for-pods-running gate, queue-level preemption, admission checks, deactivation and the
// maximum execution time (behaviour.md §7.4, §10, §11, §12).
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

const schema::StringMap kPreemptive = {{"koord-queue/wait-for-pods-running", "true"},
                                       {"koord-queue/enable-queueunit-preemption", "true"}};

// A unit admitted earlier with `replicas` replicas of which `running` run.
schema::QueueUnit admitted(const std::string& name, int32_t priority, int64_t replicas, int64_t running,
                           const std::string& cpu_per_replica = "1") {
  schema::QueueUnit u = unit(name, "q", cpu_per_replica, priority, 100);
  u.spec.resource.clear();
  u.spec.request.clear();
  schema::PodSet ps;
  ps.name = "worker";
  ps.count = replicas;
  ps.containers.push_back({"main", {{"cpu", cpu_per_replica}}, {}});
  u.spec.pod_set.push_back(ps);
  u.status.phase = running == replicas ? "Running" : "Dequeued";
  u.status.admissions = {{"worker", replicas, std::nullopt, running, std::nullopt}};
  u.status.last_allocate_time = 0;
  return u;
}

TEST(SchedulerGate, an_assumed_unit_stops_further_admission_when_waiting_for_pods) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "100"}}));
  d.input(queue("q", "Priority", {{"koord-queue/wait-for-pods-running", "true"}}));
  d.input(admitted("starting", 0, 2, 1));
  d.at(d.time + 20 * kMs);
  auto round = d.input(unit("next", "q", "1", 0, 200));
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0]->reason, "no more queueUnit allowed to schedule in this queue");
}

TEST(SchedulerGate, the_gate_opens_when_the_assumed_unit_is_all_running) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "100"}}));
  d.input(queue("q", "Priority", {{"koord-queue/wait-for-pods-running", "true"}}));
  auto starting = admitted("starting", 0, 2, 1);
  d.input(starting);
  d.at(d.time + 20 * kMs);
  d.input(unit("next", "q", "1", 0, 200));
  starting.status.admissions[0].running = 2;
  starting.status.phase = "Running";
  starting.metadata.resource_version = "300";
  d.at(d.time + 20 * kMs);
  auto round = d.input(starting);  // all-running wakes the failed unit out of backoff
  EXPECT_EQ(of_kind(round, DecisionKind::kAdmit).size(), 1u);
}

TEST(SchedulerPreemption, trigger_a_marks_the_lowest_units_until_they_cover_the_request) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(queue("q", "Priority", kPreemptive));
  d.input(admitted("low1", 1, 2, 0));  // assumed: not all running
  d.input(admitted("low2", 2, 2, 0));
  d.at(d.time + 20 * kMs);
  auto round = d.input(unit("urgent", "q", "2", 10, 300));
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0]->reason, "limited quotaName:q, limited resKey:cpu,; preempt succeed");
  const auto preempts = of_kind(round, DecisionKind::kPreempt);
  ASSERT_EQ(preempts.size(), 1u);  // low1 (the lowest) alone covers 2 cpu
  EXPECT_EQ(target_name(*preempts[0]), "default/low1");
  const auto& patch = *preempts[0]->status_patch;
  EXPECT_EQ(patch.message, "Waiting job extension to reclaim resources.");
  ASSERT_TRUE(patch.admissions.has_value());
  EXPECT_EQ((*patch.admissions)[0].reclaim_state->replicas, 2);
  EXPECT_EQ(preempts[0]->events.at(0).reason, "Preempted");
  EXPECT_EQ(preempts[0]->events.at(0).message, "Preempted by default/urgent in queue q");
  EXPECT_EQ(d.s.queues().at("q").victims.at("default/low1"), 2);
}

TEST(SchedulerPreemption, candidates_that_cannot_cover_the_request_mark_nobody) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(queue("q", "Priority", kPreemptive));
  d.input(admitted("low1", 1, 2, 1));   // one replica reclaimable
  d.input(admitted("high", 20, 2, 0));  // sorts before the preemptor: not a candidate
  d.at(d.time + 20 * kMs);
  auto round = d.input(unit("urgent", "q", "3", 10, 300));
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0]->reason, "limited quotaName:q, limited resKey:cpu,; preempt failed");
  EXPECT_TRUE(of_kind(round, DecisionKind::kPreempt).empty());
}

TEST(SchedulerPreemption, a_reclaim_is_reported_once_and_ends_the_round) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(queue("q", "Priority", kPreemptive));
  auto low = admitted("low1", 1, 2, 0);
  d.input(low);
  d.input(admitted("low2", 2, 2, 0));
  d.at(d.time + 20 * kMs);
  auto round = d.input(unit("urgent", "q", "2", 10, 300));
  const auto* preempt = of_kind(round, DecisionKind::kPreempt).at(0);
  d.outcome(*preempt, actors::OutcomeResult::kSuccess, "400");
  // The job extension gives the two replicas back.
  low.metadata.resource_version = "401";
  low.status.admissions[0].replicas = 0;
  low.status.admissions[0].reclaim_state.reset();
  d.at(d.time + kSec);
  auto after = d.input(low);
  const auto reclaimed = of_kind(after, DecisionKind::kReclaimObserved);
  ASSERT_EQ(reclaimed.size(), 1u);
  EXPECT_EQ(reclaimed[0]->events.at(0).message, "Reclaimed 2 replicas in queue q");
  EXPECT_TRUE(d.s.queues().at("q").victims.empty());
}

TEST(SchedulerPreemption, trigger_b_marks_every_candidate_when_the_gate_stops_a_unit_that_fits) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "100"}}));
  d.input(queue("q", "Priority", kPreemptive));
  d.input(admitted("high", 20, 2, 0));  // sorts before the preemptor: not a candidate
  d.input(admitted("low1", 1, 2, 1));   // one replica reclaimable
  d.input(admitted("low2", 2, 2, 0));
  d.at(d.time + 20 * kMs);
  auto round = d.input(unit("urgent", "q", "1", 10, 300));
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  // Victims in queue order (priority 2 before priority 1); no preempt suffix on a gate text.
  EXPECT_EQ(fails[0]->reason, "preemption: waiting for queueUnit preempted, victims: [default/low2,default/low1]");
  const auto preempts = of_kind(round, DecisionKind::kPreempt);
  ASSERT_EQ(preempts.size(), 2u);
  EXPECT_EQ(target_name(*preempts[0]), "default/low2");
  EXPECT_EQ(target_name(*preempts[1]), "default/low1");
  EXPECT_EQ(d.s.queues().at("q").victims, (std::map<std::string, int64_t>{{"default/low1", 1}, {"default/low2", 2}}));
  EXPECT_FALSE(d.s.queues().at("q").cursor.has_value());  // victims marked: cursor back to head
}

struct ProtectCase {
  int64_t low1_age;  // since lastAllocateTime, at the attempt
  int64_t low2_age;
  std::vector<std::string> victims;
  std::string suffix;
};

TEST(SchedulerPreemption, a_victim_admitted_within_the_protect_time_is_skipped) {
  const int64_t protect = 60 * kSec;
  const std::vector<ProtectCase> cases = {
      {10 * kSec, 120 * kSec, {"default/low2"}, "; preempt succeed"},
      {protect, 120 * kSec, {"default/low1"}, "; preempt succeed"},  // protection ends at exactly 60 s
      {10 * kSec, protect - kMs, {}, "; preempt failed"},
  };
  for (const auto& c : cases) {
    actors::DecisionConfig config;
    config.reclaim_protect_nanos = protect;
    SchedulerDriver d(config);
    const int64_t attempt_at = d.time + 20 * kMs;
    d.input(quota("q", "", {{"cpu", "4"}}));
    d.input(queue("q", "Priority", kPreemptive));
    auto low1 = admitted("low1", 1, 2, 0);
    low1.status.last_allocate_time = attempt_at - c.low1_age;
    auto low2 = admitted("low2", 2, 2, 0);
    low2.status.last_allocate_time = attempt_at - c.low2_age;
    d.input(low1);
    d.input(low2);
    d.at(attempt_at);
    auto round = d.input(unit("urgent", "q", "2", 10, 300));
    const auto fails = of_kind(round, DecisionKind::kFail);
    ASSERT_EQ(fails.size(), 1u);
    EXPECT_EQ(fails[0]->reason, "limited quotaName:q, limited resKey:cpu," + c.suffix) << c.low1_age;
    std::vector<std::string> victims;
    for (const auto* p : of_kind(round, DecisionKind::kPreempt)) victims.push_back(target_name(*p));
    EXPECT_EQ(victims, c.victims) << c.low1_age << " " << c.low2_age;
  }
}

// urgent marks low1; while low1 is being reclaimed nobody else is marked, although low2 would
// cover the second preemptor's request.
SchedulerDriver preempting_queue() {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(queue("q", "Priority", kPreemptive));
  d.input(admitted("low1", 1, 2, 0));
  d.input(admitted("low2", 2, 2, 0));
  d.at(d.time + 20 * kMs);
  const auto first = d.input(unit("urgent", "q", "2", 10, 300));
  EXPECT_EQ(of_kind(first, DecisionKind::kPreempt).size(), 1u);
  EXPECT_EQ(d.s.queues().at("q").victims.count("default/low1"), 1u);
  d.at(d.time + 20 * kMs);
  return d;
}

TEST(SchedulerPreemption, a_queue_already_preempting_fails_trigger_a_without_marking) {
  SchedulerDriver d = preempting_queue();
  auto round = d.input(unit("second", "q", "2", 9, 400));
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(target_name(*fails[0]), "default/second");
  EXPECT_EQ(fails[0]->reason, "limited quotaName:q, limited resKey:cpu,; preempt failed");
  EXPECT_TRUE(of_kind(round, DecisionKind::kPreempt).empty());
  EXPECT_EQ(d.s.queues().at("q").victims.count("default/low2"), 0u);
}

TEST(SchedulerPreemption, a_queue_already_preempting_stops_trigger_b_at_the_gate) {
  SchedulerDriver d = preempting_queue();
  auto round = d.input(unit("second", "q", "0", 9, 400));  // passes the quota check
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0]->reason, "queue q is preempting, not allowed to preempt again");
  EXPECT_TRUE(of_kind(round, DecisionKind::kPreempt).empty());
}

TEST(SchedulerAdmissionChecks, an_applicable_check_reserves_and_ready_dequeues) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  auto q = queue("q");
  q.spec.admission_checks.push_back({"provisioning", std::nullopt});
  d.input(q);
  auto u = unit("job1", "q", "1");
  auto round = d.input(u);
  const auto reserves = of_kind(round, DecisionKind::kReserve);
  ASSERT_EQ(reserves.size(), 1u);
  const auto& patch = *reserves[0]->status_patch;
  EXPECT_EQ(patch.phase, "Reserved");
  EXPECT_EQ(patch.message, "Reserved resources success, waiting admission checks to be ready");
  ASSERT_TRUE(patch.admission_checks.has_value());
  EXPECT_EQ((*patch.admission_checks)[0].state, "Pending");
  EXPECT_TRUE(reserves[0]->events.empty());
  d.outcome(*reserves[0], actors::OutcomeResult::kSuccess, "101");
  u.status = actors::merged(u.status, patch);
  u.metadata.resource_version = "101";
  d.input(u);
  u.status.admission_checks[0].state = "Ready";
  u.metadata.resource_version = "102";
  d.at(d.time + kSec);
  auto ready = d.input(u);
  const auto done = of_kind(ready, DecisionKind::kAdmissionChecksReady);
  ASSERT_EQ(done.size(), 1u);
  EXPECT_EQ(done[0]->status_patch->phase, "Dequeued");
  EXPECT_EQ(done[0]->status_patch->message, "all admission checks success");
  EXPECT_EQ(done[0]->events.at(0).message, "dequeue success");
}

TEST(SchedulerAdmissionChecks, a_rejected_check_backs_off_and_releases_the_quota) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  auto q = queue("q");
  q.spec.admission_checks.push_back({"provisioning", std::nullopt});
  d.input(q);
  auto u = unit("job1", "q", "1");
  auto round = d.input(u);
  d.outcome(round[0], actors::OutcomeResult::kSuccess, "101");
  u.status = actors::merged(u.status, *round[0].status_patch);
  u.status.admission_checks[0].state = "Rejected";
  u.metadata.resource_version = "102";
  d.at(d.time + kSec);
  auto rejected = d.input(u);
  const auto failed = of_kind(rejected, DecisionKind::kAdmissionCheckFailed);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0]->status_patch->phase, "TimeoutBackoff");
  EXPECT_EQ(failed[0]->status_patch->admissions, std::vector<schema::Admission>{});
  // The release counts once its write lands, never before (a failed write would hold again).
  EXPECT_EQ(d.s.quotas().usage("q").used.at("cpu"), 1000);
  d.outcome(*failed[0], actors::OutcomeResult::kSuccess, "103");
  EXPECT_TRUE(d.s.quotas().usage("q").used.empty());
}

TEST(SchedulerLifecycle, deactivation_is_signalled_once_on_the_consumer) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(queue("q"));
  auto u = admitted("job1", 0, 1, 1);
  u.spec.consumer_ref = schema::ConsumerRef{"kubeflow.org/v1", "PyTorchJob", "job1", "", "uid-job"};
  d.input(u);
  u.spec.active = false;
  u.metadata.resource_version = "500";
  d.at(d.time + kSec);
  auto round = d.input(u);
  const auto deactivated = of_kind(round, DecisionKind::kDeactivated);
  ASSERT_EQ(deactivated.size(), 1u);
  EXPECT_EQ(deactivated[0]->status_patch->message, "Evicted because the queue unit is deactivated");
  EXPECT_EQ(deactivated[0]->events.at(0).involved_object.kind, "PyTorchJob");
  EXPECT_EQ(deactivated[0]->events.at(0).involved_object.namespace_, "default");
  EXPECT_TRUE(of_kind(d.run_until(d.time + kSec, 100 * kMs), DecisionKind::kDeactivated).empty());
}

TEST(SchedulerLifecycle, the_maximum_execution_time_counts_from_the_observed_running_transition) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(queue("q"));
  auto u = admitted("job1", 0, 1, 0);
  u.spec.maximum_execution_time_seconds = 5;
  d.input(u);
  const int64_t running_at = d.time + kSec;
  d.at(running_at);
  u.status.phase = "Running";
  u.status.admissions[0].running = 1;
  u.metadata.resource_version = "600";
  d.input(u);
  auto early = d.run_until(running_at + 4900 * kMs, 100 * kMs);
  EXPECT_TRUE(of_kind(early, DecisionKind::kMaxExecExceeded).empty());
  auto later = d.run_until(running_at + 6 * kSec, 100 * kMs);
  const auto exceeded = of_kind(later, DecisionKind::kMaxExecExceeded);
  ASSERT_EQ(exceeded.size(), 1u);
  EXPECT_EQ(exceeded[0]->events.at(0).message, "The maximum execution time (5s) was exceeded");
  EXPECT_TRUE(exceeded[0]->events.at(0).warning);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
