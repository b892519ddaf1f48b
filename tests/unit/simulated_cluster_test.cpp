// The simulated cluster on its own: the default tree it creates, how units arrive, determinism per
// seed and per step size, the next event's time, speed, and a class at its maximum of units.
#include "kube/simulator/simulated_cluster.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/simulator_fixture.hpp"

namespace koordq::kube::sim {
namespace KOORDQ_TEST_LOCAL {

using namespace fixture;

TEST(SimulatedCluster, start_creates_the_default_tree_with_both_policies) {
  SimulatedCluster sim(*load_scenario("default"), 1, kStart);
  const auto events = sim.advance_to(kStart);
  std::map<std::string, std::string> parent;
  std::map<std::string, schema::Queue> queues;
  for (const auto& e : events) {
    EXPECT_EQ(e.event.type, WatchEventType::kAdded);
    EXPECT_EQ(e.time, kStart);
    if (const auto* q = std::get_if<schema::ElasticQuota>(&*e.event.object)) {
      const auto it = q->metadata.labels.find("quota.scheduling.koordinator.sh/parent");
      parent[q->metadata.name] = it == q->metadata.labels.end() ? "" : it->second;
    } else if (const auto* q = std::get_if<schema::Queue>(&*e.event.object)) {
      queues[q->metadata.name] = *q;
    }
  }
  int deepest = 0;
  for (const auto& [name, p] : parent) {
    int depth = 1;
    for (std::string at = p; !at.empty(); at = parent.at(at)) ++depth;
    deepest = std::max(deepest, depth);
  }
  EXPECT_EQ(deepest, 3);
  std::set<std::string> policies;
  bool preemption = false, max_depth = false, checks = false;
  for (const auto& [name, q] : queues) {
    policies.insert(q.spec.queue_policy);
    const auto& a = q.metadata.annotations;
    preemption |= a.count("koord-queue/wait-for-pods-running") && a.count("koord-queue/enable-queueunit-preemption");
    max_depth |= a.count("koord-queue/max-depth") > 0;
    checks |= !q.spec.admission_checks.empty();
    EXPECT_EQ(q.metadata.namespace_, "koord-queue");
    EXPECT_EQ(q.spec.priority, 1000);
  }
  EXPECT_EQ(policies, (std::set<std::string>{"Block", "Priority"}));
  EXPECT_TRUE(preemption);
  EXPECT_TRUE(max_depth);
  EXPECT_TRUE(checks);
}

TEST(SimulatedCluster, units_arrive_with_whole_second_timestamps_and_rising_revisions) {
  SimulatedCluster sim(*load_scenario("default"), 3, kStart);
  const auto events = sim.advance_to(kStart + 120 * kSec);
  uint64_t last_rv = 0;
  int64_t last_time = kStart;
  std::set<std::string> uids;
  size_t units = 0;
  for (const auto& e : events) {
    const auto& meta = schema::meta_of(*e.event.object);
    const uint64_t rv = std::stoull(meta.resource_version);
    EXPECT_GT(rv, last_rv);
    EXPECT_GE(e.time, last_time);
    last_rv = rv;
    last_time = e.time;
    EXPECT_EQ(*meta.creation_timestamp % kSec, 0);
    if (e.event.type != WatchEventType::kAdded) continue;  // deactivations and reactivations
    EXPECT_TRUE(uids.insert(meta.uid).second);
    if (const auto* u = std::get_if<schema::QueueUnit>(&*e.event.object)) {
      ++units;
      EXPECT_TRUE(u->spec.consumer_ref.has_value());
      EXPECT_FALSE(u->metadata.labels.at("quota.scheduling.koordinator.sh/name").empty());
      EXPECT_FALSE(u->spec.resource.empty());
    }
  }
  // About 3 per second at speed 1.
  EXPECT_GT(units, 150u);
  EXPECT_LT(units, 600u);
  EXPECT_EQ(sim.stats().arrivals, units);
  EXPECT_EQ(sim.resource_version(), std::to_string(last_rv));
}

TEST(SimulatedCluster, same_seed_gives_the_same_events_and_another_seed_others) {
  auto run = [](uint64_t seed) {
    SimulatedCluster sim(*load_scenario("default"), seed, kStart);
    std::vector<TimedEvent> all;
    for (int64_t t = kStart; t <= kStart + 300 * kSec; t += 7 * kSec) {
      auto e = sim.advance_to(t);
      all.insert(all.end(), e.begin(), e.end());
    }
    return trace_of(all);
  };
  EXPECT_EQ(run(11), run(11));
  EXPECT_NE(run(11), run(12));
}

TEST(SimulatedCluster, advancing_in_steps_or_at_once_gives_the_same_events) {
  SimulatedCluster a(tiny(), 5, kStart), b(tiny(), 5, kStart);
  std::vector<TimedEvent> stepped;
  for (int64_t t = kStart; t <= kStart + 200 * kSec; t += kSec / 3) {
    auto e = a.advance_to(t);
    stepped.insert(stepped.end(), e.begin(), e.end());
  }
  EXPECT_EQ(trace_of(stepped), trace_of(b.advance_to(kStart + 200 * kSec)));
}

TEST(SimulatedCluster, next_event_time_is_where_the_next_event_happens) {
  SimulatedCluster sim(tiny(), 9, kStart);
  sim.advance_to(kStart);
  const auto next = sim.next_event_time();
  ASSERT_TRUE(next.has_value());
  EXPECT_TRUE(sim.advance_to(*next - 1).empty());
  const auto events = sim.advance_to(*next);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front().time, *next);
}

TEST(SimulatedCluster, speed_divides_the_simulators_intervals) {
  SimulatedCluster normal(tiny(), 4, kStart), doubled(tiny(), 4, kStart, 2 * kMillion);
  normal.advance_to(kStart);
  doubled.advance_to(kStart);
  const int64_t gap = *normal.next_event_time() - kStart;
  EXPECT_NEAR(static_cast<double>(*doubled.next_event_time() - kStart), gap / 2.0, 1.0);
}

// The tiny scenario with its first class capped at `max_units` and arriving every second on average.
Scenario capped(int64_t max_units) {
  Scenario s = tiny();
  s.job_classes[0].max_units = max_units;
  s.job_classes[0].arrivals_per_minute_ppm = 60 * kMillion;
  return s;
}

TEST(SimulatedCluster, a_class_at_max_units_skips_arrivals) {
  SimulatedCluster sim(capped(2), 1, kStart);
  sim.advance_to(kStart + 60 * kSec);
  EXPECT_EQ(sim.stats().arrivals, 2u);
  EXPECT_GT(sim.stats().arrivals_skipped, 10u);
}

// The cap counts the class's units that are not finished: one that succeeded makes room.
TEST(SimulatedCluster, a_class_at_max_units_takes_arrivals_again_once_a_unit_is_done) {
  SimulatedCluster sim(capped(1), 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.advance_to(sim.now() + 20 * kSec);
  EXPECT_EQ(sim.stats().arrivals, 1u);
  EXPECT_GT(sim.stats().arrivals_skipped, 0u);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  // Started after 2 s, succeeded 30 s later, deleted 10 s after that.
  sim.advance_to(sim.now() + 36 * kSec);
  EXPECT_EQ(current(sim, u).status.phase, "Succeed");
  sim.advance_to(sim.now() + 4 * kSec);
  EXPECT_EQ(sim.stats().arrivals, 2u);
}

// After a restart the units the journal holds count against the cap as the ones that arrived.
TEST(SimulatedCluster, restored_units_count_against_max_units) {
  const Scenario s = capped(2);
  SimulatedCluster first(s, 1, kStart);
  first.advance_to(kStart + 30 * kSec);
  ASSERT_EQ(first.stats().arrivals, 2u);
  std::vector<schema::WatchedObject> latest;
  for (auto kind : {ObjectKind::kElasticQuota, ObjectKind::kQueue, ObjectKind::kQueueUnit}) {
    for (auto& o : first.list(kind)) latest.push_back(std::move(o));
  }
  SimulatedCluster second(s, 1, kStart);
  second.restore(latest, first.now(), std::stoull(first.resource_version()));
  second.advance_to(first.now() + 30 * kSec);
  EXPECT_EQ(second.stats().arrivals, 0u);
  EXPECT_GT(second.stats().arrivals_skipped, 10u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube::sim
