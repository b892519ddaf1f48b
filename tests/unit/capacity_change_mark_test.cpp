// A capacity change (quota released, quota object changed) marks every unit then waiting in the
// queues of the quota's subtree (Block step 3 retries its blocked unit at once) and wakes those
// backing off. The mark is kept as a count per queue, not written into each unit, so a release
// costs the same whatever the queue's depth: these tests pin the marks the count must give, in
// the state, across the unit's moves and in a snapshot.
#include <gtest/gtest.h>

#include "actors/wire/state_snapshot.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

schema::QueueUnit running_unit(const std::string& name, const std::string& quota_label) {
  schema::QueueUnit u = unit(name, quota_label, "1", 0, 100);
  u.status.phase = "Running";
  u.status.admissions = {{"koord-queue/default-requirement", 1, std::nullopt, 1, std::nullopt}};
  return u;
}

// Quota q of 1 cpu held by running unit a; unit b fails in q and backs off. Inputs after that are
// applied without a round (a round would try b and clear its mark).
struct FullQueue {
  FullQueue() {
    d.input(quota("q", "", {{"cpu", "1"}}));
    d.input(queue("q", "Block"));
    a = running_unit("a", "q");
    d.input(a);
    d.at(d.time + kSec);
    EXPECT_EQ(of_kind(d.input(unit("b", "q", "1", 0, 1)), DecisionKind::kFail).size(), 1u);
  }
  void apply(const schema::WatchedObject& o, bool deleted = false) {
    d.at(d.time + kMs);
    d.s.advance_to(d.time);
    d.s.apply_object(o, deleted);
  }
  void release() {
    schema::QueueUnit done = a;
    done.status.phase = "Succeed";
    done.metadata.resource_version = "101";
    apply(done);
  }
  const actors::UnitState& b() const { return d.s.units().at("default/b"); }

  SchedulerDriver d;
  schema::QueueUnit a;
};

TEST(CapacityChangeMark, a_release_marks_the_waiting_unit_and_wakes_its_backoff) {
  FullQueue f;
  ASSERT_TRUE(f.b().waiting);
  ASSERT_TRUE(f.b().backoff_until.has_value());
  EXPECT_FALSE(f.b().capacity_changed_since_attempt());
  f.release();
  EXPECT_TRUE(f.b().capacity_changed_since_attempt());
  EXPECT_FALSE(f.b().backoff_until.has_value()) << "the release wakes it from backoff";
  EXPECT_FALSE(f.d.s.queues().at("q").backoff.count("default/b"));
}

TEST(CapacityChangeMark, a_unit_that_comes_to_wait_after_the_change_is_not_marked) {
  FullQueue f;
  f.release();
  f.apply(unit("x", "q", "1", 0, 2));
  ASSERT_TRUE(f.d.s.units().at("default/x").waiting);
  EXPECT_FALSE(f.d.s.units().at("default/x").capacity_changed_since_attempt());
  EXPECT_TRUE(f.b().capacity_changed_since_attempt());
}

// The mark stays with a unit that leaves its queue's waiting units (here: its Queue is deleted)
// and with it when it waits again; an attempt clears it.
TEST(CapacityChangeMark, the_mark_stays_when_the_unit_stops_waiting_and_an_attempt_clears_it) {
  FullQueue f;
  f.release();
  f.apply(queue("q", "Block"), true);
  ASSERT_FALSE(f.b().waiting);
  EXPECT_TRUE(f.b().capacity_changed_since_attempt());
  f.apply(queue("q", "Block"));
  ASSERT_TRUE(f.b().waiting);
  EXPECT_TRUE(f.b().capacity_changed_since_attempt());
  f.d.round();  // b is admitted: the attempt clears the mark
  EXPECT_FALSE(f.b().capacity_changed_since_attempt());
}

TEST(CapacityChangeMark, a_snapshot_holds_the_marks_and_a_restored_state_keeps_them) {
  FullQueue f;
  f.release();
  f.apply(unit("x", "q", "1", 0, 2));
  const std::string bytes = actors::encode_state_snapshot(f.d.s, 1, f.d.time, "journal");
  auto restored = actors::decode_state_snapshot(bytes, f.d.s.config());
  ASSERT_TRUE(restored.ok()) << restored.message();
  const actors::Scheduler& r = restored->scheduler;
  EXPECT_TRUE(r.units().at("default/b").capacity_changed_since_attempt());
  EXPECT_FALSE(r.units().at("default/x").capacity_changed_since_attempt());
  EXPECT_EQ(actors::encode_state_snapshot(r, 1, f.d.time, "journal"), bytes);
  // A change after the restore marks both, as it would have live.
  actors::Scheduler live = f.d.s;
  actors::Scheduler again = r;
  for (actors::Scheduler* s : {&live, &again}) {
    s->advance_to(f.d.time + kMs);
    s->apply_object(quota("q", "", {{"cpu", "2"}}), false);
  }
  EXPECT_TRUE(again.units().at("default/x").capacity_changed_since_attempt());
  EXPECT_EQ(actors::encode_state_snapshot(again, 2, f.d.time, "journal"),
            actors::encode_state_snapshot(live, 2, f.d.time, "journal"));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
