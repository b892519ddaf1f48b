// The round index's backoff ends (QueueState::backoff_ends): a queue's recheck time is the earliest
// backoff end of the units waiting in it, found without walking them. Entries are dropped lazily,
// so a unit that comes back to a queue's waiting units while still backing off must bring its end
// back, and a restored state must have its entries again.
#include <gtest/gtest.h>

#include "actors/wire/state_snapshot.hpp"
#include "tests/support/round_index_invariants.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

schema::Queue quiet_queue(const std::string& name) {
  return queue(name, "Priority", {{"koord-queue/disable-show-queue-items", "true"}});
}

schema::QueueUnit running_unit(const std::string& name, const std::string& quota_label) {
  schema::QueueUnit u = unit(name, quota_label, "1", 0, 100);
  u.status.phase = "Running";
  u.status.admissions = {{"koord-queue/default-requirement", 1, std::nullopt, 1, std::nullopt}};
  return u;
}

std::string describe(const std::vector<std::string>& violations) {
  std::string out;
  for (const auto& v : violations) out += v + "\n";
  return out;
}

// Quotas q and r of 1 cpu, each held by a running unit; unit b fails in q and backs off.
struct TwoFullQueues {
  TwoFullQueues() {
    d.input(quota("q", "", {{"cpu", "1"}}));
    d.input(quota("r", "", {{"cpu", "1"}}));
    d.input(quiet_queue("q"));
    d.input(quiet_queue("r"));
    d.input(running_unit("a", "q"));
    d.input(running_unit("c", "r"));
    d.at(d.time + kSec);
    b = unit("b", "q", "1", 0, 1);
    EXPECT_EQ(of_kind(d.input(b), DecisionKind::kFail).size(), 1u);
    end = d.s.units().at("default/b").backoff_until.value_or(0);
  }
  SchedulerDriver d;
  schema::QueueUnit b;
  int64_t end = 0;
};

TEST(RoundIndexBackoff, a_unit_backing_off_sets_its_queues_recheck_time) {
  TwoFullQueues f;
  ASSERT_GT(f.end, f.d.time);
  EXPECT_EQ(f.d.s.next_deadline(), f.end);  // brings the index up to date
  EXPECT_EQ(f.d.s.queues().at("q").recheck, f.end);
  EXPECT_TRUE(round_index_violations(f.d.s).empty()) << describe(round_index_violations(f.d.s));
}

// A change of the unit's spec or labels (a move to another queue, say) ends its backoff; a unit
// comes back to a queue's waiting units still backing off when its Queue goes and comes back.
TEST(RoundIndexBackoff, a_unit_still_backing_off_when_its_queue_comes_back_brings_its_end_back) {
  TwoFullQueues f;
  f.d.at(f.d.time + kMs);
  f.d.input(quiet_queue("q"), true);
  ASSERT_FALSE(f.d.s.units().at("default/b").waiting);
  EXPECT_NE(f.d.s.next_deadline(), f.end);
  f.d.at(f.d.time + kMs);
  f.d.input(quiet_queue("q"));
  ASSERT_TRUE(f.d.s.units().at("default/b").waiting);
  ASSERT_EQ(f.d.s.units().at("default/b").backoff_until, f.end);
  EXPECT_EQ(f.d.s.next_deadline(), f.end);
  EXPECT_EQ(f.d.s.queues().at("q").recheck, f.end);
  EXPECT_TRUE(round_index_violations(f.d.s).empty()) << describe(round_index_violations(f.d.s));
}

TEST(RoundIndexBackoff, a_restored_state_rechecks_at_the_backoff_ends_it_holds) {
  TwoFullQueues f;
  const std::string bytes = actors::encode_state_snapshot(f.d.s, 1, f.d.time, "journal");
  auto restored = actors::decode_state_snapshot(bytes, f.d.s.config());
  ASSERT_TRUE(restored.ok()) << restored.message();
  const actors::Scheduler& s = restored->scheduler;
  ASSERT_EQ(s.units().at("default/b").backoff_until, f.end);
  EXPECT_EQ(s.next_deadline(), f.end);
  EXPECT_EQ(s.queues().at("q").recheck, f.end);
  EXPECT_TRUE(round_index_violations(s).empty()) << describe(round_index_violations(s));
}

// Past and no-longer-true entries leave the index when it reads them; a queue of many units
// backing off keeps the earliest end that still holds.
TEST(RoundIndexBackoff, the_earliest_end_that_still_holds_is_kept_and_stale_ones_are_dropped) {
  TwoFullQueues f;
  f.d.at(f.d.time + 10 * kMs);
  EXPECT_EQ(of_kind(f.d.input(unit("e", "q", "1", 0, 2)), DecisionKind::kFail).size(), 1u);
  const int64_t e_end = f.d.s.units().at("default/e").backoff_until.value_or(0);
  ASSERT_GT(e_end, f.end);
  f.d.at(f.d.time + kMs);
  f.d.input(f.b, true);  // b goes: its entry no longer holds
  EXPECT_EQ(f.d.s.next_deadline(), e_end);
  EXPECT_EQ(f.d.s.queues().at("q").recheck, e_end);
  EXPECT_EQ(f.d.s.queues().at("q").backoff_ends.size(), 1u);
  EXPECT_TRUE(round_index_violations(f.d.s).empty()) << describe(round_index_violations(f.d.s));
}

// A queue with a max-depth window walks its window for backoff ends and does not read the index,
// which still drops its passed entries instead of keeping one per backoff for ever.
TEST(RoundIndexBackoff, a_windowed_queue_drops_the_backoff_ends_that_passed) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(queue("q", "Priority", {{"koord-queue/disable-show-queue-items", "true"}, {"koord-queue/max-depth", "5"}}));
  d.input(running_unit("a", "q"));
  d.at(d.time + kSec);
  EXPECT_EQ(of_kind(d.input(unit("b", "q", "1", 0, 1)), DecisionKind::kFail).size(), 1u);
  const auto& q = d.s.queues().at("q");
  ASSERT_EQ(q.settings.max_depth, 5);
  const auto& b = d.s.units().at("default/b");
  for (int attempt = 0; attempt < 5; ++attempt) {
    ASSERT_TRUE(b.backoff_until.has_value());
    const int64_t end = *b.backoff_until;
    EXPECT_EQ(d.s.next_deadline(), end);
    d.tick(end);  // b is tried again and fails again
  }
  EXPECT_LE(q.backoff_ends.size(), 1u);
  EXPECT_TRUE(round_index_violations(d.s).empty()) << describe(round_index_violations(d.s));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
