// What a status write that fails gives back (behaviour.md §7.1, §7.3; design.md §3): quota is free
// only once the cluster no longer holds it, whatever the order in which answers and watch events
// arrive. Minimal reproductions of three over-admissions decision_property_test once found.
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;
using actors::OutcomeResult;

int64_t used_cpu(const SchedulerDriver& d, const std::string& quota) {
  const auto used = d.s.quotas().usage(quota).used;
  return used.count("cpu") ? used.at("cpu") : 0;
}

actors::Outcome answer(uint64_t round_seq, const actors::Decision& decision, OutcomeResult result,
                       const std::string& rv = "") {
  actors::Outcome o;
  o.decision_seq = round_seq;
  o.target = decision.target;
  o.result = result;
  o.resource_version = rv;
  return o;
}

// The watch event of a status write that landed.
schema::QueueUnit landed(schema::QueueUnit unit, const actors::Decision& decision, const std::string& rv) {
  unit.status = actors::merged(unit.status, *decision.status_patch);
  unit.metadata.resource_version = rv;
  return unit;
}

// team-a (2 cpu) whose Queue has the check "provisioning"; unit a of 2 cpu reserved (that write
// landed at rv 101), then the check Rejected on the server at rv 102: the returned object, not yet
// input.
schema::QueueUnit reserved_then_rejected(SchedulerDriver& d) {
  d.input(quota("team-a", "", {{"cpu", "2"}}));
  auto checked = queue("team-a");
  checked.spec.admission_checks.push_back(schema::QueueAdmissionCheck{"provisioning", {}});
  d.input(checked);
  auto a = unit("a", "team-a", "2");
  const auto first = d.input(a);
  const auto reserve = of_kind(first, DecisionKind::kReserve);
  if (reserve.size() != 1u) {
    ADD_FAILURE() << "expected one reserve decision, got " << reserve.size();
    return a;
  }
  d.s.apply_outcome(answer(d.last_round_seq, *reserve.front(), OutcomeResult::kSuccess, "101"));
  a = landed(a, *reserve.front(), "101");
  d.input(a);
  a.status.admission_checks.front().state = "Rejected";
  a.metadata.resource_version = "102";
  return a;
}

TEST(SchedulerWriteFailure, a_release_whose_write_fails_never_frees_the_quota_for_another_unit) {
  SchedulerDriver d;
  auto a = reserved_then_rejected(d);
  ASSERT_FALSE(HasFailure());
  const auto verdict = d.input(a);
  const auto failed = of_kind(verdict, DecisionKind::kAdmissionCheckFailed);
  ASSERT_EQ(failed.size(), 1u);
  const uint64_t release_round = d.last_round_seq;

  d.input(unit("b", "team-a", "2"));
  d.tick(d.time + 20 * kMs);
  // The admission-check controller touched `a` again: the release write answers 409.
  d.s.apply_outcome(answer(release_round, *failed.front(), OutcomeResult::kConflict));
  EXPECT_LE(used_cpu(d, "team-a"), 2000);
}

TEST(SchedulerWriteFailure, a_failed_write_keeps_the_earlier_write_that_landed) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "4"}}));
  d.input(queue("team-a", "Priority",
                {{"koord-queue/wait-for-pods-running", "true"}, {"koord-queue/enable-queueunit-preemption", "true"}}));
  const auto first = d.input(unit("a", "team-a", "2", 0, 1));
  const auto admit = of_kind(first, DecisionKind::kAdmit);
  ASSERT_EQ(admit.size(), 1u);
  d.s.apply_outcome(answer(d.last_round_seq, *admit.front(), OutcomeResult::kSuccess, "200"));

  d.input(unit("b", "team-a", "2", 5, 0));
  const auto marking = d.tick(d.time + 20 * kMs);
  const auto preempt = of_kind(marking, DecisionKind::kPreempt);
  ASSERT_EQ(preempt.size(), 1u);
  // Marked against the resourceVersion the watch last showed (100), not the one the landed write
  // produced (200): the API server answers 409.
  d.s.apply_outcome(answer(d.last_round_seq, *preempt.front(), OutcomeResult::kConflict));
  EXPECT_TRUE(d.s.units().at("default/a").holds);
  EXPECT_EQ(used_cpu(d, "team-a"), 2000);
}

TEST(SchedulerWriteFailure, a_write_decided_while_another_is_queued_carries_that_writes_keys_too) {
  SchedulerDriver d;
  auto a = reserved_then_rejected(d);
  ASSERT_FALSE(HasFailure());
  ASSERT_EQ(of_kind(d.input(a), DecisionKind::kAdmissionCheckFailed).size(), 1u);
  // Deactivated while the release (`TimeoutBackoff`, `admissions: []`) is still queued.
  a.spec.active = false;
  a.metadata.resource_version = "103";
  const auto after = d.input(a);
  const auto deactivated = of_kind(after, DecisionKind::kDeactivated);
  ASSERT_EQ(deactivated.size(), 1u);
  const auto& patch = *deactivated.front()->status_patch;
  EXPECT_EQ(patch.phase, "TimeoutBackoff");
  EXPECT_EQ(patch.admissions, std::vector<schema::Admission>{});
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
