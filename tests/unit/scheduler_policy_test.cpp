// Queue order, Priority and Block policies, policy changes, mapping and unsupported policies
// (behaviour.md §4, §6).
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

std::vector<std::string> admitted_in_order(const std::vector<actors::Decision>& ds) {
  std::vector<std::string> out;
  for (const auto& d : ds) {
    if (d.kind == DecisionKind::kAdmit) out.push_back(target_name(d));
  }
  return out;
}

TEST(SchedulerOrder, higher_priority_then_older_then_smaller_name_is_tried_first) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "100"}}));
  // Units arrive before their queue: the queue then holds all four at once.
  d.input(unit("b", "q", "1", 5, 10));
  d.input(unit("a", "q", "1", 5, 10, "x-y"));  // "x-y/a" < "x/a" since '-' < '/'
  d.input(unit("a", "q", "1", 5, 10, "x"));
  d.input(unit("old", "q", "1", 5, 1));
  d.input(unit("high", "q", "1", 9, 50));
  auto all = d.input(queue("q"));
  auto later = d.run_until(d.time + 200 * kMs);
  all.insert(all.end(), later.begin(), later.end());
  EXPECT_EQ(admitted_in_order(all),
            (std::vector<std::string>{"default/high", "default/old", "default/b", "x-y/a", "x/a"}));
}

TEST(SchedulerOrder, a_queue_attempts_at_most_once_per_suspend_interval) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "100"}}));
  for (int i = 0; i < 5; ++i) d.input(unit("u" + std::to_string(i), "q", "1", 0, i));
  d.input(queue("q"));
  const int64_t start = d.time;
  auto all = d.run_until(start + 25 * kMs, kMs);
  // At start, +10 ms and +20 ms: three attempts in 25 ms with --schedule-suspend-time-ms=10.
  EXPECT_EQ(admitted_in_order(all).size(), 2u);  // the third one was in the queue's own round
  EXPECT_EQ(d.s.queues().at("q").last_attempt, start + 20 * kMs);
}

TEST(SchedulerPriority, a_failed_head_does_not_stop_later_units_that_fit) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  d.input(unit("big", "q", "4", 10));
  d.input(unit("small", "q", "1", 0));
  d.input(queue("q"));
  auto all = d.run_until(d.time + 100 * kMs);
  EXPECT_EQ(admitted_in_order(all), std::vector<std::string>{"default/small"});
  EXPECT_EQ(of_kind(all, DecisionKind::kFail).size(), 0u);  // big failed in the queue's first round
  EXPECT_EQ(d.s.units().at("default/big").failures, 1);
}

TEST(SchedulerBlock, a_failed_head_blocks_its_quota) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  d.input(unit("big", "q", "4", 10));
  d.input(unit("small", "q", "1", 0));
  d.input(queue("q", "Block"));
  auto all = d.run_until(d.time + 3 * kSec);
  EXPECT_TRUE(admitted_in_order(all).empty());
  EXPECT_EQ(d.s.queues().at("q").blocked.at("q"), "default/big");
}

TEST(SchedulerBlock, the_blocker_is_retried_on_its_backoff_and_never_sooner_than_five_seconds) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  d.input(queue("q", "Block"));
  const int64_t start = d.time;
  d.input(unit("big", "q", "4"));
  std::vector<int64_t> attempts{0};
  for (int64_t t = start + 10 * kMs; t <= start + 20 * kSec; t += 10 * kMs) {
    if (!of_kind(d.tick(t), DecisionKind::kFail).empty()) attempts.push_back((t - start) / kMs);
  }
  ASSERT_GE(attempts.size(), 3u);
  EXPECT_EQ(attempts[1], 5000);   // backoff 1 s, but the 5 s wait of §6.4 step 3
  EXPECT_EQ(attempts[2], 10000);  // backoff 2 s < 5 s
}

TEST(SchedulerBlock, releasing_quota_unblocks_and_admits_the_blocker) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(queue("q", "Block"));
  auto running = unit("running", "q", "3");
  running.status.phase = "Running";
  running.status.admissions = {{"koord-queue/default-requirement", 1, std::nullopt, 1, std::nullopt}};
  d.input(running);
  d.at(d.time + 20 * kMs);
  d.input(unit("next", "q", "2", 0, 5));
  EXPECT_EQ(d.s.queues().at("q").blocked.count("q"), 1u);
  running.status.phase = "Succeed";
  running.metadata.resource_version = "200";
  d.at(d.time + 20 * kMs);
  auto round = d.input(running);
  EXPECT_EQ(admitted_in_order(round), std::vector<std::string>{"default/next"});
  EXPECT_TRUE(d.s.queues().at("q").blocked.empty());
}

TEST(SchedulerMapping, a_unit_without_a_queue_is_reported_once_after_ten_seconds) {
  SchedulerDriver d;
  const int64_t start = d.time;
  d.input(unit("job1", "missing", "1"));
  auto early = d.run_until(start + 9990 * kMs);
  EXPECT_TRUE(of_kind(early, DecisionKind::kQueueNotFound).empty());
  auto later = d.run_until(start + 12 * kSec);
  const auto reports = of_kind(later, DecisionKind::kQueueNotFound);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0]->status_patch->message, "queue missing does not exist");
  EXPECT_EQ(reports[0]->events.at(0).reason, "QueueNotFound");
  EXPECT_TRUE(reports[0]->events.at(0).warning);
  EXPECT_EQ(d.s.next_deadline(), std::nullopt);
}

TEST(SchedulerMapping, a_unit_without_a_quota_label_is_never_reported) {
  SchedulerDriver d;
  d.input(unit("job1", "", "1"));
  EXPECT_TRUE(of_kind(d.run_until(d.time + 15 * kSec, 100 * kMs), DecisionKind::kQueueNotFound).empty());
}

TEST(SchedulerPolicies, unsupported_policies_get_one_add_queue_fail_and_no_admissions) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "4"}}));
  d.input(unit("job1", "q", "1"));
  auto round = d.input(queue("q", "FIFO"));
  const auto fails = of_kind(round, DecisionKind::kAddQueueFail);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0]->events.at(0).message, "unsupported queue policy FIFO");
  EXPECT_EQ(fails[0]->events.at(0).involved_object.kind, "Queue");
  auto later = d.run_until(d.time + kSec, 100 * kMs);
  EXPECT_TRUE(of_kind(later, DecisionKind::kAddQueueFail).empty());
  EXPECT_TRUE(admitted_in_order(later).empty());
  EXPECT_EQ(d.s.queues().at("q").waiting.size(), 1u);  // mapped, waiting and positioned
  // Switching to a supported policy starts the loop.
  auto fixed = d.input(queue("q", "Priority"));
  EXPECT_EQ(admitted_in_order(fixed), std::vector<std::string>{"default/job1"});
}

// §6.7: Priority ↔ Block in place: cursor := head, blocks cleared, backoff state kept.
TEST(SchedulerPolicyChange, priority_to_block_resets_the_cursor_and_keeps_the_backoff) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  d.input(queue("q", "Priority"));
  const int64_t failed_at = d.time;
  d.input(unit("big", "q", "4"));
  ASSERT_TRUE(d.s.queues().at("q").cursor.has_value());
  ASSERT_EQ(d.s.units().at("default/big").backoff_until, failed_at + kSec);
  d.at(failed_at + 100 * kMs);
  d.input(queue("q", "Block"));
  const auto& q = d.s.queues().at("q");
  EXPECT_FALSE(q.cursor.has_value());
  EXPECT_TRUE(q.blocked.empty());
  EXPECT_EQ(d.s.units().at("default/big").backoff_until, failed_at + kSec);
  EXPECT_EQ(d.s.units().at("default/big").failures, 1);
  // Now under Block: tried again 5 s after its last try (§6.4 step 3), and its failure blocks.
  EXPECT_TRUE(of_kind(d.run_until(failed_at + 5 * kSec - 10 * kMs), DecisionKind::kFail).empty());
  EXPECT_EQ(of_kind(d.run_until(failed_at + 5 * kSec), DecisionKind::kFail).size(), 1u);
  EXPECT_EQ(q.blocked.at("q"), "default/big");
}

TEST(SchedulerPolicyChange, block_to_priority_clears_the_blocks_and_keeps_the_blocker_in_backoff) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "2"}}));
  d.input(unit("big", "q", "4", 10));
  d.input(unit("small", "q", "1", 0));
  const int64_t failed_at = d.time;
  d.input(queue("q", "Block"));  // big fails and blocks the quota; small waits behind it
  d.run_until(failed_at + 100 * kMs);
  ASSERT_EQ(d.s.queues().at("q").blocked.at("q"), "default/big");
  ASSERT_EQ(d.s.units().at("default/small").backoff_until, std::nullopt);
  d.at(failed_at + 200 * kMs);
  d.s.advance_to(d.time);
  d.s.apply_object(queue("q", "Priority"), false);
  const auto& q = d.s.queues().at("q");
  EXPECT_TRUE(q.blocked.empty());
  EXPECT_FALSE(q.cursor.has_value());
  EXPECT_EQ(q.last_reset, failed_at + 200 * kMs);
  EXPECT_EQ(d.s.units().at("default/big").backoff_until, failed_at + kSec);
  EXPECT_EQ(d.s.units().at("default/big").failures, 1);
  EXPECT_EQ(admitted_in_order(d.round()), std::vector<std::string>{"default/small"});
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
