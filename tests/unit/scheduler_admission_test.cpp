// The scheduling attempt, quota check and accounting (behaviour.md §7, §8) and backoff (§9).
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

TEST(SchedulerAdmission, a_unit_that_fits_is_dequeued_with_the_full_status_write) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "4"}}));
  d.input(queue("team-a"));
  auto round = d.input(unit("job1", "team-a", "2"));
  ASSERT_GE(round.size(), 1u);
  const auto& admit = round[0];
  EXPECT_EQ(admit.kind, DecisionKind::kAdmit);
  ASSERT_TRUE(admit.status_patch.has_value());
  const auto& p = *admit.status_patch;
  EXPECT_EQ(p.phase, "Dequeued");
  EXPECT_EQ(p.message, "Dequeued because schedule successfully");
  EXPECT_EQ(p.attempts, 1);
  EXPECT_EQ(p.last_update_time, d.time);
  EXPECT_EQ(p.last_allocate_time, d.time);
  EXPECT_EQ(p.resource_version, "100");
  ASSERT_TRUE(p.admissions.has_value());
  ASSERT_EQ(p.admissions->size(), 1u);
  EXPECT_EQ((*p.admissions)[0].name, "koord-queue/default-requirement");
  EXPECT_EQ((*p.admissions)[0].replicas, 1);
  EXPECT_EQ(admit.spec_queue_patch, "team-a");
  ASSERT_EQ(admit.events.size(), 1u);
  EXPECT_EQ(admit.events[0].reason, "Scheduled");
  EXPECT_EQ(admit.events[0].message, "dequeue success");
  EXPECT_FALSE(admit.events[0].warning);
  // The reservation counts from the decision on.
  EXPECT_EQ(d.s.quotas().usage("team-a").used.at("cpu"), 2000);
}

TEST(SchedulerAdmission, a_unit_over_max_fails_with_the_quota_text_and_backs_off) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "1"}}));
  d.input(queue("team-a"));
  auto round = d.input(unit("job1", "team-a", "2"));
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0]->reason, "limited quotaName:team-a, limited resKey:cpu,");
  EXPECT_EQ(fails[0]->status_patch->message, "limited quotaName:team-a, limited resKey:cpu,");
  EXPECT_EQ(fails[0]->status_patch->attempts, 1);
  EXPECT_FALSE(fails[0]->status_patch->phase.has_value());
  ASSERT_EQ(fails[0]->events.size(), 1u);
  EXPECT_EQ(fails[0]->events[0].reason, "FailedScheduling");
  EXPECT_TRUE(fails[0]->events[0].warning);
  ASSERT_EQ(fails[0]->quota_check.size(), 1u);
  EXPECT_EQ(fails[0]->quota_check[0].used, 0);
  EXPECT_EQ(fails[0]->quota_check[0].request, 2000);
  EXPECT_EQ(fails[0]->quota_check[0].limit, 1000);
  EXPECT_FALSE(fails[0]->quota_check[0].pass);
  EXPECT_EQ(d.s.units().at("default/job1").failures, 1);
}

TEST(SchedulerAdmission, backoff_doubles_from_one_second_up_to_twenty) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "1"}}));
  d.input(queue("team-a"));
  const int64_t start = d.time;
  d.input(unit("job1", "team-a", "2"));
  std::vector<int64_t> attempt_times{0};
  for (int64_t t = start + 10 * kMs; t <= start + 90 * kSec; t += 10 * kMs) {
    auto round = d.tick(t);
    if (!of_kind(round, DecisionKind::kFail).empty()) attempt_times.push_back((t - start) / kMs);
  }
  // 1, 2, 4, 8, 16, 20, 20 seconds apart (§9).
  ASSERT_GE(attempt_times.size(), 7u);
  const std::vector<int64_t> gaps{1000, 2000, 4000, 8000, 16000, 20000};
  for (size_t i = 0; i < gaps.size(); ++i) {
    EXPECT_EQ(attempt_times[i + 1] - attempt_times[i], gaps[i]) << "attempt " << i + 1;
  }
}

TEST(SchedulerAdmission, the_quota_check_walks_the_tree_and_names_the_blocking_level) {
  SchedulerDriver d;
  d.input(quota("root-a", "", {{"cpu", "3"}}));
  d.input(quota("team-a", "root-a", {{"cpu", "10"}}));
  d.input(queue("team-a"));
  auto first = d.input(unit("job1", "team-a", "2"));
  EXPECT_EQ(of_kind(first, DecisionKind::kAdmit).size(), 1u);
  d.at(d.time + 20 * kMs);
  auto second = d.input(unit("job2", "team-a", "2", 0, 1));
  const auto fails = of_kind(second, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  EXPECT_EQ(fails[0]->reason, "limited quotaName:root-a, limited resKey:cpu,");
  ASSERT_EQ(fails[0]->quota_check.size(), 2u);
  EXPECT_TRUE(fails[0]->quota_check[0].pass);
  EXPECT_EQ(fails[0]->quota_check[1].quota, "root-a");
  EXPECT_EQ(fails[0]->quota_check[1].used, 2000);
  EXPECT_EQ(d.s.quotas().usage("root-a").children_used.at("cpu"), 2000);
}

TEST(SchedulerAdmission, a_missing_parent_and_a_cycle_give_the_checkusage_texts) {
  SchedulerDriver d;
  d.input(quota("a", "b", {{"cpu", "10"}}));
  d.input(queue("a"));
  auto round = d.input(unit("job1", "a", "1"));
  ASSERT_EQ(of_kind(round, DecisionKind::kFail).size(), 1u);
  EXPECT_EQ(of_kind(round, DecisionKind::kFail)[0]->reason,
            "CheckUsage found quota not exist, item:default/job1, quotaName:b, visited quota: a,b");

  SchedulerDriver c;
  c.input(quota("a", "b", {{"cpu", "10"}}));
  c.input(quota("b", "a", {{"cpu", "10"}}));
  c.input(queue("a"));
  auto cycle = c.input(unit("job1", "a", "1"));
  ASSERT_EQ(of_kind(cycle, DecisionKind::kFail).size(), 1u);
  EXPECT_EQ(of_kind(cycle, DecisionKind::kFail)[0]->reason,
            "CheckUsage found cycle reference, item:default/job1, quotaName:a, visited quota: a,b,a");
}

TEST(SchedulerAdmission, an_empty_max_refuses_a_non_empty_request) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {}));
  d.input(queue("team-a"));
  auto round = d.input(unit("job1", "team-a", "1"));
  ASSERT_EQ(of_kind(round, DecisionKind::kFail).size(), 1u);
  EXPECT_EQ(of_kind(round, DecisionKind::kFail)[0]->reason,
            "limited quotaName:team-a, quota spec is empty but queue unit res is not empty");
}

TEST(SchedulerAdmission, oversellrate_scales_max_in_integer_arithmetic) {
  actors::DecisionConfig config;
  config.oversell_rate_ppm = 1'500'000;  // 1.5
  SchedulerDriver d(config);
  d.input(quota("team-a", "", {{"cpu", "2"}}));
  d.input(queue("team-a"));
  auto round = d.input(unit("job1", "team-a", "3"));
  EXPECT_EQ(of_kind(round, DecisionKind::kAdmit).size(), 1u);
}

TEST(SchedulerAdmission, queues_sharing_a_parent_see_the_rounds_earlier_reservations) {
  SchedulerDriver d;
  d.input(quota("parent", "", {{"cpu", "2"}}));
  d.input(quota("a", "parent", {{"cpu", "2"}}));
  d.input(quota("b", "parent", {{"cpu", "2"}}));
  // Both units arrive before their queues: one round then decides for both queues.
  d.input(unit("job-a", "a", "2"));
  d.input(unit("job-b", "b", "2"));
  d.s.advance_to(d.time);
  d.s.apply_object(queue("b"), false);
  d.s.apply_object(queue("a"), false);
  auto round = d.round();
  // Queues decide in name order: a admits, b sees a's reservation on the shared parent.
  const auto admits = of_kind(round, DecisionKind::kAdmit);
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(admits.size() + fails.size(), 2u);
  ASSERT_EQ(admits.size(), 1u);
  EXPECT_EQ(target_name(*admits[0]), "default/job-a");
  EXPECT_EQ(fails[0]->reason, "limited quotaName:parent, limited resKey:cpu,");
}

TEST(SchedulerAdmission, a_failed_write_releases_the_reservation) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "2"}}));
  d.input(queue("team-a"));
  auto round = d.input(unit("job1", "team-a", "2"));
  ASSERT_EQ(d.s.quotas().usage("team-a").used.at("cpu"), 2000);
  d.outcome(round[0], actors::OutcomeResult::kNotFound);
  EXPECT_TRUE(d.s.quotas().usage("team-a").used.empty());
}

TEST(SchedulerAdmission, the_observed_write_replaces_the_reservation_without_double_charging) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "4"}}));
  d.input(queue("team-a"));
  auto u = unit("job1", "team-a", "2");
  auto round = d.input(u);
  d.outcome(round[0], actors::OutcomeResult::kSuccess, "101");
  u.metadata.resource_version = "101";
  u.status = actors::merged(u.status, *round[0].status_patch);
  d.input(u, false);
  EXPECT_FALSE(d.s.units().at("default/job1").pending_status.has_value());
  EXPECT_EQ(d.s.quotas().usage("team-a").used.at("cpu"), 2000);
  EXPECT_EQ(d.s.quotas().usage("team-a").count, 1);
}

TEST(SchedulerAdmission, terminal_phases_release_quota) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "4"}}));
  d.input(queue("team-a"));
  auto u = unit("job1", "team-a", "2");
  auto round = d.input(u);
  u.metadata.resource_version = "101";
  u.status = actors::merged(u.status, *round[0].status_patch);
  d.outcome(round[0], actors::OutcomeResult::kSuccess, "101");
  d.input(u);
  u.metadata.resource_version = "102";
  u.status.phase = "Succeed";
  d.input(u);
  EXPECT_TRUE(d.s.quotas().usage("team-a").used.empty());
  EXPECT_EQ(d.s.quotas().usage("team-a").count, 0);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
