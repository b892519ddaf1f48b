// The simulated cluster restarted from a journal's latest state: it goes on without duplicates and
// creates the scenario's objects the state lacks.
#include <algorithm>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "kube/simulator/simulated_cluster.hpp"
#include "tests/support/simulator_fixture.hpp"

namespace koordq::kube::sim {
namespace KOORDQ_TEST_LOCAL {

using namespace fixture;

TEST(SimulatedClusterRestore, continues_from_the_latest_state_without_duplicates) {
  SimulatedCluster first(tiny(), 1, kStart);
  const schema::QueueUnit u = arrived_unit(first);
  first.apply_decision(1, 0, admit(u, queue_named(first, "team"), first.now()), first.now());
  first.advance_to(first.now() + 10 * kSec);
  ASSERT_EQ(current(first, u).status.phase, "Running");

  std::vector<schema::WatchedObject> latest;
  for (auto kind : {ObjectKind::kElasticQuota, ObjectKind::kQueue, ObjectKind::kQueueUnit}) {
    for (auto& o : first.list(kind)) latest.push_back(std::move(o));
  }
  const int64_t restart = first.now() + 3 * kSec;
  SimulatedCluster second(tiny(), 1, kStart);
  second.restore(latest, restart, std::stoull(first.resource_version()) + 5);
  const auto events = second.advance_to(restart + 100 * kSec);

  std::set<std::string> names;
  for (const auto& o : latest) names.insert(object_key(o));
  for (const auto& e : events) {
    EXPECT_FALSE(e.event.type == WatchEventType::kAdded && names.count(object_key(*e.event.object)))
        << object_key(*e.event.object) << " was created again";
    EXPECT_GT(std::stoull(schema::meta_of(*e.event.object).resource_version),
              std::stoull(first.resource_version()) + 5);
  }
  // The running job finishes after the restart.
  const auto versions = versions_of(events, u.metadata.name);
  ASSERT_FALSE(versions.empty());
  EXPECT_EQ(versions.front().status.phase, "Succeed");
  EXPECT_GT(second.stats().arrivals, 0u);
}

TEST(SimulatedClusterRestore, creates_scenario_objects_the_state_lacks) {
  SimulatedCluster sim(tiny(), 1, kStart);
  sim.restore({}, kStart);
  const auto events = sim.advance_to(kStart);
  EXPECT_EQ(
      std::count_if(events.begin(), events.end(), [](const auto& e) { return e.event.kind() == ObjectKind::kQueue; }),
      2);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube::sim
