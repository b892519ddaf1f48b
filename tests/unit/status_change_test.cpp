// Folding a status patch into a status (behaviour.md §7.3): the patch's keys replace the
// status's, the rest stays; the fold's form that takes the patch's lists gives the same status.
#include "actors/core/status_change.hpp"

#include <gtest/gtest.h>

namespace koordq::actors {
namespace KOORDQ_TEST_LOCAL {

schema::QueueUnitStatus observed() {
  schema::QueueUnitStatus s;
  s.phase = "Enqueued";
  s.message = "waiting";
  s.attempts = 2;
  s.last_update_time = 100;
  s.pod_state = schema::PodState{.running = 1, .pending = 2};
  return s;
}

StatusPatch admission_patch() {
  StatusPatch p;
  p.resource_version = "41";
  p.phase = "Dequeued";
  p.message = kMessageDequeued;
  p.attempts = 3;
  schema::Admission a;
  a.name = "worker";
  a.replicas = 4;
  a.resources = schema::ResourceList{{"cpu", "2"}};
  p.admissions = std::vector<schema::Admission>{a};
  return p;
}

TEST(StatusChange, a_patch_replaces_the_keys_it_sets_and_keeps_the_rest) {
  const auto out = merged(observed(), admission_patch());
  EXPECT_EQ(out.phase, "Dequeued");
  EXPECT_EQ(out.message, kMessageDequeued);
  EXPECT_EQ(out.attempts, 3);
  ASSERT_EQ(out.admissions.size(), 1u);
  EXPECT_EQ(out.admissions[0].name, "worker");
  EXPECT_EQ(out.last_update_time, 100);  // not in the patch
  EXPECT_EQ(out.pod_state, observed().pod_state);
  EXPECT_TRUE(out.admission_checks.empty());
}

TEST(StatusChange, taking_the_lists_gives_the_same_status_and_leaves_phase_and_attempts_readable) {
  StatusPatch patch = admission_patch();
  const auto taken = merged_taking_lists(observed(), patch);
  EXPECT_EQ(taken, merged(observed(), admission_patch()));
  EXPECT_EQ(patch.phase, "Dequeued");
  EXPECT_EQ(patch.attempts, 3);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors
