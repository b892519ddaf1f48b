// The simulated API server's answers to koordq's writes and the job extension it plays: a dequeued
// unit runs, succeeds or fails and is deleted; conflicts, deleted units and unchanged objects;
// reclaimed replicas, admission checks, deactivation, the maximum execution time; Queue writes
// and Events.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "actors/core/status_change.hpp"
#include "kube/simulator/simulated_cluster.hpp"
#include "tests/support/simulator_fixture.hpp"

namespace koordq::kube::sim {
namespace KOORDQ_TEST_LOCAL {

using namespace fixture;

TEST(SimulatedClusterWrites, a_dequeued_unit_runs_then_succeeds_and_is_deleted) {
  SimulatedCluster sim(tiny(), 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  const int64_t t = sim.now();
  const auto w = sim.apply_decision(10, 0, admit(u, queue_named(sim, "team"), t), t);
  ASSERT_EQ(w.outcomes.size(), 3u);
  EXPECT_EQ(w.outcomes[0].write_kind, actors::WriteKind::kStatusPatch);
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kSuccess);
  EXPECT_EQ(w.outcomes[0].decision_seq, 10u);
  EXPECT_EQ(w.outcomes[1].write_kind, actors::WriteKind::kSpecQueuePatch);
  EXPECT_EQ(w.outcomes[2].write_kind, actors::WriteKind::kEvent);
  ASSERT_EQ(w.events.size(), 2u);
  EXPECT_EQ(std::get<schema::QueueUnit>(*w.events[0].event.object).status.phase, "Dequeued");
  EXPECT_EQ(std::get<schema::QueueUnit>(*w.events[0].event.object).metadata.resource_version,
            w.outcomes[0].resource_version);
  EXPECT_EQ(std::get<schema::QueueUnit>(*w.events[1].event.object).spec.queue, "team");

  const auto later = sim.advance_to(t + 120 * kSec);
  const auto versions = versions_of(later, u.metadata.name);
  std::vector<std::string> phases;
  for (const auto& v : versions) {
    if (phases.empty() || phases.back() != v.status.phase) phases.push_back(v.status.phase);
  }
  EXPECT_EQ(phases, (std::vector<std::string>{"Dequeued", "Running", "Succeed"}));
  const auto running =
      std::find_if(versions.begin(), versions.end(), [](const auto& v) { return v.status.phase == "Running"; });
  ASSERT_NE(running, versions.end());
  EXPECT_EQ(running->status.admissions[0].running, 4);
  EXPECT_EQ(running->status.pod_state, (schema::PodState{4, 0}));
  EXPECT_GE(versions.front().status.admissions[0].running, 1);  // the first pods to start
  const auto deleted =
      std::find_if(later.begin(), later.end(), [](const auto& e) { return e.event.type == WatchEventType::kDeleted; });
  ASSERT_NE(deleted, later.end());
  EXPECT_EQ(sim.stats().succeeded, 1u);
  EXPECT_EQ(sim.stats().started, 1u);
  EXPECT_EQ(sim.stats().admissions, 1u);
  EXPECT_EQ(sim.stats().deleted, 1u);
}

TEST(SimulatedClusterWrites, a_class_with_failures_ends_failed) {
  Scenario s = tiny();
  s.job_classes[0].failure_ppm = kMillion;
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  const auto versions = versions_of(sim.advance_to(sim.now() + 60 * kSec), u.metadata.name);
  ASSERT_FALSE(versions.empty());
  EXPECT_EQ(versions.back().status.phase, "Failed");
  EXPECT_EQ(versions.back().status.pod_state, (schema::PodState{0, 0}));
}

TEST(SimulatedClusterWrites, a_stale_resource_version_is_a_conflict) {
  SimulatedCluster sim(tiny(), 1, kStart);
  schema::QueueUnit u = arrived_unit(sim);
  auto d = admit(u, queue_named(sim, "team"), sim.now());
  d.status_patch->resource_version = "1";
  const auto w = sim.apply_decision(3, 2, d, sim.now());
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kConflict);
  EXPECT_EQ(w.outcomes[0].http_code, 409);
  EXPECT_EQ(w.outcomes[0].decision_index, 2u);
  EXPECT_EQ(current(sim, u).status.phase, "");
  EXPECT_EQ(sim.stats().precondition_conflicts, 1u);
}

TEST(SimulatedClusterWrites, injected_conflicts_answer_409_without_writing) {
  Scenario s = tiny();
  s.conflict_ppm = kMillion;
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  const auto w = sim.apply_decision(3, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kConflict);
  EXPECT_EQ(current(sim, u).status.phase, "");
  EXPECT_EQ(sim.stats().conflicts_injected, 1u);
}

TEST(SimulatedClusterWrites, writes_to_a_deleted_unit_are_not_found) {
  SimulatedCluster sim(tiny(), 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  sim.advance_to(sim.now() + 200 * kSec);
  ASSERT_FALSE(sim.get(ObjectKind::kQueueUnit, u.metadata.namespace_, u.metadata.name).has_value());
  actors::Decision d;
  d.target = ref_of(u);
  d.status_patch = actors::message_patch(u, "late", sim.now());
  d.status_patch->resource_version.clear();
  d.spec_queue_patch = "team";
  const auto w = sim.apply_decision(9, 0, d, sim.now());
  ASSERT_EQ(w.outcomes.size(), 2u);
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kNotFound);
  EXPECT_EQ(w.outcomes[0].http_code, 404);
  EXPECT_EQ(w.outcomes[1].result, OutcomeResult::kNotFound);
  EXPECT_TRUE(w.events.empty());
}

TEST(SimulatedClusterWrites, an_unchanged_object_is_not_written_again) {
  SimulatedCluster sim(tiny(), 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  actors::Decision d;
  d.target = ref_of(u);
  d.status_patch = actors::StatusPatch{};
  d.status_patch->resource_version = u.metadata.resource_version;
  const auto w = sim.apply_decision(1, 0, d, sim.now());
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kSuccess);
  EXPECT_EQ(w.outcomes[0].resource_version, u.metadata.resource_version);
  EXPECT_TRUE(w.events.empty());
}

TEST(SimulatedClusterWrites, reclaimed_replicas_are_given_back_and_a_unit_left_with_none_is_enqueued) {
  Scenario s = tiny();
  s.job_classes[0].start_delay = DurationDistribution{DurationDistribution::Shape::kFixed, 100 * kSec, 0, 0};
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());

  // Mark one replica, as a preemption victim (behaviour.md §11).
  auto victim = [&](int64_t replicas) {
    const schema::QueueUnit now = current(sim, u);
    actors::Decision d;
    d.target = ref_of(now);
    d.kind = DecisionKind::kPreempt;
    d.status_patch = actors::message_patch(now, actors::kMessageReclaim, sim.now());
    auto admissions = now.status.admissions;
    admissions[0].reclaim_state = schema::ReclaimState{replicas};
    d.status_patch->admissions = admissions;
    EXPECT_EQ(sim.apply_decision(2, 0, d, sim.now()).outcomes[0].result, OutcomeResult::kSuccess);
  };
  victim(1);
  auto versions = versions_of(sim.advance_to(sim.now() + 5 * kSec), u.metadata.name);
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_EQ(versions[0].status.admissions[0].replicas, 3);
  EXPECT_FALSE(versions[0].status.admissions[0].reclaim_state.has_value());
  EXPECT_EQ(versions[0].status.phase, "Dequeued");

  victim(3);
  versions = versions_of(sim.advance_to(sim.now() + 5 * kSec), u.metadata.name);
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_TRUE(versions[0].status.admissions.empty());
  EXPECT_EQ(versions[0].status.phase, "Enqueued");
  EXPECT_EQ(versions[0].status.message, "Enqueued after preempted");
  EXPECT_EQ(sim.stats().reclaims, 2u);
  EXPECT_EQ(sim.stats().reclaimed_replicas, 4u);
  // The start that was due before the reclaim does nothing.
  EXPECT_TRUE(versions_of(sim.advance_to(sim.now() + 200 * kSec), u.metadata.name).empty());
}

TEST(SimulatedClusterWrites, a_reserved_unit_has_its_checks_marked_ready) {
  Scenario s = tiny();
  s.job_classes[1].arrivals_per_minute_ppm = 6 * kMillion;
  s.job_classes[0].arrivals_per_minute_ppm = 0;
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  const auto d = admit(u, queue_named(sim, "checked"), sim.now());
  ASSERT_EQ(d.status_patch->phase, "Reserved");
  sim.apply_decision(1, 0, d, sim.now());
  const auto versions = versions_of(sim.advance_to(sim.now() + 5 * kSec), u.metadata.name);
  ASSERT_EQ(versions.size(), 1u);
  ASSERT_EQ(versions[0].status.admission_checks.size(), 1u);
  EXPECT_EQ(versions[0].status.admission_checks[0].state, "Ready");
  EXPECT_EQ(*versions[0].status.admission_checks[0].last_transition_time % kSec, 0);
  EXPECT_EQ(versions[0].status.phase, "Reserved");  // koordq moves it on (§10)
  EXPECT_EQ(sim.stats().checks_ready, 1u);
}

TEST(SimulatedClusterWrites, a_deactivated_unit_is_suspended_and_later_reactivated) {
  Scenario s = tiny();
  s.job_classes[0].deactivate_ppm = kMillion;
  s.job_classes[0].deactivate_after = {DurationDistribution::Shape::kFixed, 20 * kSec, 0, 0};
  s.job_classes[0].reactivate_after = {DurationDistribution::Shape::kFixed, 50 * kSec, 0, 0};
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  const auto versions = versions_of(sim.advance_to(sim.now() + 25 * kSec), u.metadata.name);
  ASSERT_GE(versions.size(), 2u);
  const auto& deactivated = versions[versions.size() - 2];
  EXPECT_EQ(deactivated.spec.active, false);
  const auto& suspended = versions.back();
  EXPECT_EQ(suspended.status.phase, "Enqueued");
  EXPECT_TRUE(suspended.status.admissions.empty());
  const auto again = versions_of(sim.advance_to(sim.now() + 60 * kSec), u.metadata.name);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].spec.active, true);
  EXPECT_EQ(sim.stats().suspensions, 1u);
}

TEST(SimulatedClusterWrites, the_maximum_execution_time_message_stops_a_running_job) {
  Scenario s = tiny();
  s.job_classes[0].run_time = {DurationDistribution::Shape::kFixed, 600 * kSec, 0, 0};
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  sim.advance_to(sim.now() + 30 * kSec);
  ASSERT_EQ(current(sim, u).status.phase, "Running");
  actors::Decision d;
  d.target = ref_of(u);
  d.kind = DecisionKind::kMaxExecExceeded;
  d.status_patch = actors::message_patch(current(sim, u), actors::kMessageMaxExec, sim.now());
  sim.apply_decision(2, 0, d, sim.now());
  sim.advance_to(sim.now() + 5 * kSec);
  EXPECT_EQ(current(sim, u).status.phase, "Failed");
  EXPECT_EQ(sim.stats().evictions, 1u);
}

TEST(SimulatedClusterWrites, queue_writes_create_patch_publish_and_delete) {
  SimulatedCluster sim(tiny(), 1, kStart);
  sim.advance_to(kStart);
  actors::Decision d;
  d.target = actors::QueueRef{"team"};
  d.kind = DecisionKind::kQueueCreate;
  schema::Queue q;
  q.spec.queue_policy = "Priority";
  d.queue_write = q;
  EXPECT_EQ(sim.apply_decision(1, 0, d, kStart).outcomes[0].result, OutcomeResult::kConflict);

  d.target = actors::QueueRef{"extra"};
  auto w = sim.apply_decision(1, 1, d, kStart);
  EXPECT_EQ(w.outcomes[0].http_code, 201);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(w.events[0].event.type, WatchEventType::kAdded);
  EXPECT_EQ(schema::meta_of(*w.events[0].event.object).namespace_, "koord-queue");

  d.kind = DecisionKind::kPublishQueueItems;
  d.queue_write = schema::QueueItemDetails{{{"a", "ml", std::nullopt, 1}}, {}};
  w = sim.apply_decision(2, 0, d, kStart);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(std::get<schema::Queue>(*w.events[0].event.object).status.queue_item_details->active.size(), 1u);

  d.kind = DecisionKind::kQueuePatch;
  d.queue_write = actors::QueuePatch{"Block", {{"l", "v"}}, {}};
  w = sim.apply_decision(3, 0, d, kStart);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(std::get<schema::Queue>(*w.events[0].event.object).spec.queue_policy, "Block");

  d.kind = DecisionKind::kQueueDelete;
  d.queue_write = actors::QueueDelete{};
  w = sim.apply_decision(4, 0, d, kStart);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(w.events[0].event.type, WatchEventType::kDeleted);
  EXPECT_EQ(sim.apply_decision(5, 0, d, kStart).outcomes[0].result, OutcomeResult::kNotFound);
}

TEST(SimulatedClusterWrites, events_are_accepted_and_counted_but_not_watched) {
  SimulatedCluster sim(tiny(), 1, kStart);
  sim.advance_to(kStart);
  actors::Decision d;
  d.target = actors::QueueRef{"team"};
  d.kind = DecisionKind::kAddQueueFail;
  d.events.resize(2);
  const auto w = sim.apply_decision(1, 0, d, kStart);
  ASSERT_EQ(w.outcomes.size(), 2u);
  EXPECT_EQ(w.outcomes[1].write_index, 1u);
  EXPECT_EQ(w.outcomes[1].http_code, 201);
  EXPECT_TRUE(w.events.empty());
  EXPECT_EQ(sim.stats().events_recorded, 2u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube::sim
