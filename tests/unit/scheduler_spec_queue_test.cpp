// spec.queue after an admission (behaviour.md §7.3): written once per admission, and written again
// by a `specQueueRepair` decision when that write was lost — never answered before a restart or a
// failover, never sent because its status write failed first, or refused by its precondition —
// while the unit stays admitted.
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;
using actors::OutcomeResult;
using actors::WriteKind;

std::vector<const actors::Decision*> spec_queue_writes(const std::vector<actors::Decision>& ds) {
  std::vector<const actors::Decision*> out;
  for (const auto& d : ds) {
    if (d.spec_queue_patch) out.push_back(&d);
  }
  return out;
}

actors::Outcome spec_queue_answer(uint64_t round_seq, const actors::Decision& d, OutcomeResult result) {
  actors::Outcome o;
  o.decision_seq = round_seq;
  o.write_kind = WriteKind::kSpecQueuePatch;
  o.target = d.target;
  o.result = result;
  return o;
}

// team-a (4 cpu) and its Queue; unit `a` (1 cpu) admitted, its status write landed and seen through
// the watch, its spec.queue write decided in round `admission_round` and not (yet) answered.
struct Admitted {
  SchedulerDriver d;
  schema::QueueUnit a = unit("a", "team-a", "1");
  uint64_t admission_round = 0;
  actors::Decision admission;

  Admitted() {
    d.input(quota("team-a", "", {{"cpu", "4"}}));
    d.input(queue("team-a"));
    const auto first = d.input(a);
    const auto admits = of_kind(first, DecisionKind::kAdmit);
    if (admits.size() != 1u) {
      ADD_FAILURE() << "expected one admission, got " << admits.size();
      return;
    }
    admission = *admits.front();
    admission_round = d.last_round_seq;
    d.outcome(admission, OutcomeResult::kSuccess, "101");
    a.status = actors::merged(a.status, *admission.status_patch);
    a.metadata.resource_version = "101";
  }

  // The watch shows the landed status (without spec.queue); the decisions of the round after it.
  std::vector<actors::Decision> status_seen() { return d.input(a); }
};

TEST(SchedulerSpecQueue, an_admission_writes_spec_queue_once_and_nothing_more_while_it_is_out) {
  Admitted t;
  ASSERT_FALSE(::testing::Test::HasFailure());
  EXPECT_EQ(t.admission.spec_queue_patch, "team-a");
  EXPECT_TRUE(spec_queue_writes(t.status_seen()).empty());
  EXPECT_TRUE(spec_queue_writes(t.d.tick(t.d.time + 10 * kSec)).empty());
  // It landed: the object shows the queue, and nothing is owed.
  t.a.spec.queue = "team-a";
  t.a.metadata.resource_version = "102";
  EXPECT_TRUE(spec_queue_writes(t.d.input(t.a)).empty());
  EXPECT_TRUE(t.d.s.units().at("default/a").spec_queue_sent.empty());
}

TEST(SchedulerSpecQueue, a_write_never_answered_before_a_restart_is_decided_again) {
  Admitted t;
  ASSERT_FALSE(::testing::Test::HasFailure());
  t.status_seen();
  // At start, the write without an answer gets the synthesised `unknown` (controller/unanswered_writes).
  t.d.s.apply_outcome(spec_queue_answer(t.admission_round, t.admission, OutcomeResult::kUnknown));
  const auto next = t.d.round();
  const auto writes = spec_queue_writes(next);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0]->kind, DecisionKind::kSpecQueueRepair);
  EXPECT_EQ(writes[0]->spec_queue_patch, "team-a");
  EXPECT_FALSE(writes[0]->status_patch.has_value());
  EXPECT_TRUE(writes[0]->events.empty());
  EXPECT_EQ(std::get<actors::UnitRef>(writes[0]->target).uid, t.a.metadata.uid);
  // The repair is out now: the next rounds leave it alone.
  EXPECT_TRUE(spec_queue_writes(t.d.tick(t.d.time + kSec)).empty());
}

TEST(SchedulerSpecQueue, a_write_refused_by_its_precondition_is_decided_again) {
  Admitted t;
  ASSERT_FALSE(::testing::Test::HasFailure());
  t.status_seen();
  // 409: the unit changed under the write (kube/writer abandons it when spec or labels differ).
  t.d.s.apply_outcome(spec_queue_answer(t.admission_round, t.admission, OutcomeResult::kConflict));
  const auto next = t.d.round();
  const auto writes = spec_queue_writes(next);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0]->kind, DecisionKind::kSpecQueueRepair);
  EXPECT_EQ(writes[0]->spec_queue_patch, "team-a");
}

TEST(SchedulerSpecQueue, an_unknown_answer_for_an_older_write_changes_nothing) {
  Admitted t;
  ASSERT_FALSE(::testing::Test::HasFailure());
  t.status_seen();
  t.d.s.apply_outcome(spec_queue_answer(t.admission_round - 1, t.admission, OutcomeResult::kUnknown));
  EXPECT_TRUE(spec_queue_writes(t.d.round()).empty());
}

TEST(SchedulerSpecQueue, a_definite_error_is_not_repeated_until_the_next_leadership) {
  Admitted t;
  ASSERT_FALSE(::testing::Test::HasFailure());
  t.status_seen();
  t.d.s.apply_outcome(spec_queue_answer(t.admission_round, t.admission, OutcomeResult::kError));
  EXPECT_TRUE(spec_queue_writes(t.d.round()).empty());
  EXPECT_TRUE(spec_queue_writes(t.d.tick(t.d.time + 60 * kSec)).empty());
  t.d.s.apply_role_acquired();
  const auto after = t.d.round();
  const auto writes = spec_queue_writes(after);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0]->kind, DecisionKind::kSpecQueueRepair);
}

TEST(SchedulerSpecQueue, a_new_leader_writes_what_the_previous_one_left_unwritten_and_only_that) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "4"}}));
  d.input(queue("team-a"));
  // Journaled as a follower (no rounds): admitted by the previous leader, one without spec.queue.
  auto admitted = [](const std::string& name, const std::string& phase, const std::string& spec_queue) {
    auto u = unit(name, "team-a", "1");
    u.spec.queue = spec_queue;
    u.status.phase = phase;
    u.status.admissions = {{"koord-queue/default-requirement", 1, std::nullopt, 0, std::nullopt}};
    return u;
  };
  d.s.apply_object(admitted("lost", "Dequeued", ""), false);
  d.s.apply_object(admitted("running", "Running", "elsewhere"), false);
  d.s.apply_object(admitted("written", "Dequeued", "team-a"), false);
  d.s.apply_object(admitted("finished", "Succeed", ""), false);
  d.s.apply_role_acquired();
  const auto first = d.round();
  std::vector<std::string> repaired;
  for (const auto* w : spec_queue_writes(first)) {
    EXPECT_EQ(w->kind, DecisionKind::kSpecQueueRepair);
    EXPECT_EQ(w->spec_queue_patch, "team-a");
    repaired.push_back(target_name(*w));
  }
  EXPECT_EQ(repaired, (std::vector<std::string>{"default/lost", "default/running"}));
  EXPECT_TRUE(spec_queue_writes(d.tick(d.time + kSec)).empty());
}

TEST(SchedulerSpecQueue, a_unit_that_waits_gets_its_spec_queue_with_the_admission_only) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "1"}}));
  d.input(queue("team-a"));
  d.input(unit("big", "team-a", "2"));  // never fits: it waits
  d.s.apply_role_acquired();
  EXPECT_TRUE(spec_queue_writes(d.round()).empty());
}

TEST(SchedulerSpecQueue, a_top_up_in_the_round_of_a_repair_does_not_write_it_twice) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "4"}}));
  d.input(queue("team-a"));
  auto u = half_admitted_workers(unit("job", "team-a", "1"));
  u.status.phase = "Running";
  const auto ds = d.input(u);
  const auto writes = spec_queue_writes(ds);
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0]->kind, DecisionKind::kSpecQueueRepair);
  ASSERT_EQ(of_kind(ds, DecisionKind::kAdmit).size(), 1u);
  EXPECT_FALSE(of_kind(ds, DecisionKind::kAdmit).front()->spec_queue_patch.has_value());
}

TEST(SchedulerSpecQueue, a_deleted_unit_owes_nothing) {
  Admitted t;
  ASSERT_FALSE(::testing::Test::HasFailure());
  t.status_seen();
  t.d.s.apply_outcome(spec_queue_answer(t.admission_round, t.admission, OutcomeResult::kUnknown));
  EXPECT_TRUE(spec_queue_writes(t.d.input(t.a, true)).empty());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
