// The Scheduler's derived indexes (per-queue housekeeping, not-waiting and backoff sets, queue timers): each entry
// exists exactly while its matter is pending, and each timer acts at its due time, not a record later and not a record
// sooner. A round visits only the indexed units and `advance_to` only the queues whose timer is due, so a stale entry
// would silently skip a decision.
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/scheduler_invariants.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

constexpr int64_t kThreeMinutes = 180 * kSec;

schema::Queue quiet_queue(const std::string& name, const std::string& policy = "Priority") {
  return queue(name, policy, {{"koord-queue/disable-show-queue-items", "true"}});
}

std::optional<int64_t> timer_of(const actors::Scheduler& s, const std::string& queue) {
  for (const auto& [t, name] : s.queue_timers()) {
    if (name == queue) return t;
  }
  return std::nullopt;
}

std::string describe(const std::vector<std::string>& violations) {
  std::string out;
  for (const auto& v : violations) out += v + "\n";
  return out;
}

bool indexed(const SchedulerDriver& d, const std::string& key) {
  return d.s.queues().at("q").housekeeping.count(key) > 0;
}

schema::QueueUnit running_unit(const std::string& name) {
  schema::QueueUnit u = unit(name, "q", "1", 0, 100);
  u.status.phase = "Running";
  u.status.admissions = {{"koord-queue/default-requirement", 1, std::nullopt, 1, std::nullopt}};
  return u;
}

TEST(SchedulerIndexes, a_priority_cursor_resets_exactly_three_minutes_after_the_last_reset) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  d.input(quiet_queue("q"));
  const int64_t start = d.time;
  d.input(unit("big", "q", "4"));  // fails: the cursor stays on it
  const auto& q = d.s.queues().at("q");
  ASSERT_TRUE(q.cursor.has_value());
  EXPECT_EQ(timer_of(d.s, "q"), start + kThreeMinutes);
  d.s.advance_to(start + kThreeMinutes - 1);
  EXPECT_TRUE(q.cursor.has_value());
  d.s.advance_to(start + kThreeMinutes);
  EXPECT_FALSE(q.cursor.has_value());
  EXPECT_EQ(q.last_reset, start + kThreeMinutes);
  EXPECT_EQ(timer_of(d.s, "q"), std::nullopt);
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

TEST(SchedulerIndexes, a_block_expires_exactly_three_minutes_after_the_last_activity_and_wakes_the_blocker) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  d.input(quiet_queue("q", "Block"));
  const int64_t start = d.time;
  d.input(unit("big", "q", "4"));
  const auto& q = d.s.queues().at("q");
  ASSERT_EQ(q.blocked.count("q"), 1u);
  EXPECT_EQ(q.last_activity, start);
  EXPECT_EQ(timer_of(d.s, "q"), start + kThreeMinutes);
  d.s.advance_to(start + kThreeMinutes - 1);
  EXPECT_EQ(q.blocked.count("q"), 1u);
  d.s.advance_to(start + kThreeMinutes);
  EXPECT_TRUE(q.blocked.empty());
  EXPECT_FALSE(d.s.units().at("default/big").backoff_until.has_value());
  EXPECT_EQ(timer_of(d.s, "q"), std::nullopt);
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

TEST(SchedulerIndexes, an_unchanged_publication_moves_to_the_next_interval_when_due) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  const auto first = d.input(queue("q", "Priority", {{"koord-queue/queue-items-refresh-interval", "2s"}}));
  ASSERT_EQ(of_kind(first, DecisionKind::kPublishQueueItems).size(), 1u);
  const auto& q = d.s.queues().at("q");
  const int64_t due = d.time + 2 * kSec;
  EXPECT_EQ(q.next_publish, due);
  EXPECT_EQ(timer_of(d.s, "q"), due);
  d.s.advance_to(due - 1);
  EXPECT_EQ(q.next_publish, due);
  // The (empty) list would not change: skipped to the next interval.
  d.s.advance_to(due);
  EXPECT_EQ(q.next_publish, due + 2 * kSec);
  EXPECT_EQ(timer_of(d.s, "q"), due + 2 * kSec);
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

TEST(SchedulerIndexes, a_deleted_queue_leaves_no_timer) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  d.input(queue("q"));
  EXPECT_TRUE(timer_of(d.s, "q").has_value());
  d.input(queue("q"), true);
  EXPECT_EQ(timer_of(d.s, "q"), std::nullopt);
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

// A unit's queue pointer is derived: a copy of the state points at its own queues, and a deleted
// queue leaves its units unmapped, so a later change of a unit reaches neither a queue that is
// gone nor one of another state.
TEST(SchedulerIndexes, a_copied_state_and_a_deleted_queue_keep_each_units_queue_its_own) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(quiet_queue("q"));
  d.input(unit("a", "q", "1"));
  d.input(unit("b", "q", "1"));  // waits: the quota is full
  auto copy = std::make_unique<actors::Scheduler>(d.s);
  EXPECT_EQ(copy->units().at("default/b").queue, &copy->queues().at("q"));
  EXPECT_TRUE(derived_index_violations(*copy).empty()) << describe(derived_index_violations(*copy));
  actors::Scheduler assigned;
  assigned = *copy;
  EXPECT_EQ(assigned.units().at("default/b").queue, &assigned.queues().at("q"));

  d.input(quiet_queue("q"), true);
  EXPECT_EQ(d.s.units().at("default/b").queue, nullptr);
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
  d.input(unit("b", "q", "1", 5));  // a change of the unmapped unit
  EXPECT_EQ(d.s.units().at("default/b").queue, nullptr);

  copy->advance_to(d.time);
  copy->apply_object(schema::WatchedObject(unit("b", "q", "1", 5)), false);
  const auto& waiting = copy->queues().at("q").waiting;
  ASSERT_EQ(waiting.size(), 1u);
  EXPECT_EQ(waiting.begin()->priority, 5) << "the change reached the copy's own queue";
  EXPECT_TRUE(derived_index_violations(*copy).empty()) << describe(derived_index_violations(*copy));
  EXPECT_TRUE(derived_index_violations(assigned).empty()) << describe(derived_index_violations(assigned));
}

// Until the Queue shows a list (published by koordq or observed on the object), a due
// publication has nothing to compare with: no timer, so records do not visit the queue.
TEST(SchedulerIndexes, a_publication_has_a_timer_once_the_queue_shows_a_list) {
  SchedulerDriver d;
  const int64_t start = d.time;
  d.s.advance_to(start);
  d.s.apply_object(queue("q"), false);
  EXPECT_EQ(timer_of(d.s, "q"), std::nullopt);
  schema::Queue shown = queue("q");
  shown.metadata.resource_version = "2";
  shown.status.queue_item_details = schema::QueueItemDetails{};
  d.s.apply_object(shown, false);  // only the status changed: not a change of the Queue
  EXPECT_EQ(timer_of(d.s, "q"), start);
  d.s.advance_to(start + 1);  // the shown (empty) list is what it would publish: next interval
  EXPECT_EQ(d.s.queues().at("q").next_publish, start + 1 + 15 * kSec);
  EXPECT_EQ(timer_of(d.s, "q"), start + 1 + 15 * kSec);
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

TEST(SchedulerIndexes, a_deactivated_unit_is_indexed_until_its_deactivation_is_decided) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(quiet_queue("q"));
  auto u = running_unit("job1");
  d.input(u);
  EXPECT_FALSE(indexed(d, "default/job1"));
  u.spec.active = false;
  u.metadata.resource_version = "500";
  d.s.advance_to(d.time + kSec);
  d.s.apply_object(u, false);
  EXPECT_TRUE(indexed(d, "default/job1"));
  EXPECT_EQ(of_kind(d.round(), DecisionKind::kDeactivated).size(), 1u);
  EXPECT_FALSE(indexed(d, "default/job1"));
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

TEST(SchedulerIndexes, a_running_unit_with_a_time_limit_is_indexed_until_the_excess_is_reported) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(quiet_queue("q"));
  auto u = running_unit("job1");
  u.spec.maximum_execution_time_seconds = 1;
  const int64_t start = d.time;
  d.input(u);
  EXPECT_TRUE(indexed(d, "default/job1"));
  EXPECT_EQ(d.s.execution_limited().count("default/job1"), 1u);
  EXPECT_EQ(d.s.next_deadline(), start + kSec);
  EXPECT_TRUE(of_kind(d.tick(start + 999 * kMs), DecisionKind::kMaxExecExceeded).empty());
  EXPECT_EQ(of_kind(d.tick(start + kSec), DecisionKind::kMaxExecExceeded).size(), 1u);
  EXPECT_FALSE(indexed(d, "default/job1"));
  EXPECT_TRUE(d.s.execution_limited().empty());
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

TEST(SchedulerIndexes, an_observed_scheduling_result_is_indexed_until_its_event_is_decided) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(quiet_queue("q"));
  auto u = running_unit("job1");
  d.input(u);
  u.status.phase = "SchedSucceed";
  u.metadata.resource_version = "700";
  d.s.advance_to(d.time + kSec);
  d.s.apply_object(u, false);
  EXPECT_TRUE(indexed(d, "default/job1"));
  EXPECT_EQ(of_kind(d.round(), DecisionKind::kPhaseEvent).size(), 1u);
  EXPECT_FALSE(indexed(d, "default/job1"));
}

TEST(SchedulerIndexes, a_unit_leaves_its_old_queues_index_when_it_moves_or_goes) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(quota("r", "", {{"cpu", "4"}}));
  d.input(quiet_queue("q"));
  d.input(quiet_queue("r"));
  auto u = running_unit("job1");
  u.spec.maximum_execution_time_seconds = 100;
  d.input(u);
  EXPECT_TRUE(indexed(d, "default/job1"));
  u.metadata.labels["quota.scheduling.koordinator.sh/name"] = "r";
  u.metadata.resource_version = "800";
  d.input(u);
  EXPECT_FALSE(indexed(d, "default/job1"));
  EXPECT_EQ(d.s.queues().at("r").housekeeping.count("default/job1"), 1u);
  d.input(u, true);
  EXPECT_TRUE(d.s.queues().at("r").housekeeping.empty());
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

// A queue that may move on wakes its members in backoff through this set, not by walking every
// member: a unit is in it from its failed attempt until it is woken (here by the release of the
// running unit that goes) or a new leader resets the backoff.
TEST(SchedulerIndexes, a_failed_unit_is_in_its_queues_backoff_set_until_it_is_woken) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(quiet_queue("q"));
  d.input(running_unit("a"));
  d.at(d.time + kSec);
  EXPECT_EQ(of_kind(d.input(unit("b", "q", "1", 0, 1)), DecisionKind::kFail).size(), 1u);
  const auto& q = d.s.queues().at("q");
  EXPECT_EQ(q.backoff, std::set<std::string>{"default/b"});
  EXPECT_TRUE(d.s.units().at("default/b").backoff_until.has_value());
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
  d.at(d.time + kSec);
  d.s.advance_to(d.time);
  d.s.apply_object(running_unit("a"), true);  // the release wakes it, before any round
  EXPECT_FALSE(d.s.units().at("default/b").backoff_until.has_value());
  EXPECT_TRUE(q.backoff.empty());
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
  EXPECT_EQ(of_kind(d.round(), DecisionKind::kAdmit).size(), 1u);
  // Failing again puts a unit back; a new leader's reset takes every unit out.
  d.at(d.time + kSec);
  EXPECT_EQ(of_kind(d.input(unit("c", "q", "1", 0, 2)), DecisionKind::kFail).size(), 1u);
  EXPECT_EQ(q.backoff, std::set<std::string>{"default/c"});
  d.s.apply_role_acquired();
  EXPECT_TRUE(q.backoff.empty());
  EXPECT_FALSE(d.s.units().at("default/c").backoff_until.has_value());
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

// The visibility API finds a queue's units that do not wait through this set, not by walking
// every member: a unit is in it while it is a member and does not wait, in its own queue only.
TEST(SchedulerIndexes, a_queues_not_waiting_set_holds_exactly_its_members_that_do_not_wait) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(quota("r", "", {{"cpu", "4"}}));
  d.input(quiet_queue("q"));
  d.input(quiet_queue("r"));
  const auto not_waiting = [&](const std::string& queue) { return d.s.queues().at(queue).not_waiting; };
  d.input(unit("waits", "q", "8"));  // more than the quota: it stays waiting
  EXPECT_TRUE(not_waiting("q").empty());
  auto u = running_unit("job1");
  d.input(u);
  EXPECT_EQ(not_waiting("q"), (std::set<std::string>{"default/job1"}));
  u.metadata.labels["quota.scheduling.koordinator.sh/name"] = "r";
  u.metadata.resource_version = "800";
  d.input(u);
  EXPECT_TRUE(not_waiting("q").empty());
  EXPECT_EQ(not_waiting("r"), (std::set<std::string>{"default/job1"}));
  d.input(u, true);
  EXPECT_TRUE(not_waiting("r").empty());
  d.input(quiet_queue("q"), true);  // the queue goes: its units are no members of anything
  d.input(quiet_queue("q"));
  EXPECT_TRUE(not_waiting("q").empty());
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

TEST(SchedulerIndexes, a_unit_without_its_queue_is_indexed_until_reported_or_mapped) {
  SchedulerDriver d;
  const int64_t start = d.time;
  d.input(unit("lost", "missing", "1"));
  d.input(unit("found", "later", "1"));
  EXPECT_EQ(d.s.unmapped_pending(), (std::set<std::string>{"default/found", "default/lost"}));
  EXPECT_EQ(d.s.next_deadline(), start + 10 * kSec);
  d.at(start + 5 * kSec);
  d.input(quota("later", "", {{"cpu", "4"}}));
  d.input(queue("later"));
  EXPECT_EQ(d.s.unmapped_pending(), std::set<std::string>{"default/lost"});
  const auto round = d.tick(start + 10 * kSec);
  const auto reported = of_kind(round, DecisionKind::kQueueNotFound);
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_EQ(target_name(*reported[0]), "default/lost");
  EXPECT_TRUE(d.s.unmapped_pending().empty());
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

// A new UID under a unit's name is another unit (§4): the old one is folded away first, with its
// charge and its place in every set, and the new one starts fresh in the same slot of the map.
TEST(SchedulerIndexes, a_unit_recreated_under_its_name_replaces_the_old_one_and_its_charge) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(quiet_queue("q"));
  d.input(unit("before", "q", "1"));         // admitted: holds the whole quota
  d.input(unit("z-after", "q", "1", 0, 1));  // waits; keys on both sides of the recreated one
  ASSERT_EQ(d.s.quotas().usage("q").used.at("cpu"), 1000);
  schema::QueueUnit again = unit("before", "q", "1", 0, 2);
  again.metadata.uid = "uid-default-before-2";
  again.status.attempts = 7;
  d.s.apply_object(again, false);
  const std::string key = actors::unit_key("default", "before");
  ASSERT_EQ(d.s.units().size(), 2u);
  const actors::UnitState& u = d.s.units().at(key);
  EXPECT_EQ(u.object.metadata.uid, "uid-default-before-2");
  EXPECT_EQ(u.attempts, 7);
  EXPECT_FALSE(u.holds);
  EXPECT_TRUE(u.waiting);
  EXPECT_EQ(u.enqueued_at, 2);
  const auto& used = d.s.quotas().usage("q").used;  // the old unit's reservation is gone
  EXPECT_EQ(used.count("cpu") ? used.at("cpu") : 0, 0);
  EXPECT_EQ(d.s.queues().at("q").members.count(key), 1u);
  EXPECT_TRUE(derived_index_violations(d.s).empty()) << describe(derived_index_violations(d.s));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
