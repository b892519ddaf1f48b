// A unit whose quantities do not parse, are negative or overflow is never admitted (behaviour.md
// §3.1): it does not wait in its queue, gets one status message and one Warning event naming the
// field and the value, and is admitted once its spec is fixed. Before, such an entry was dropped
// and the unit was charged nothing, which fits even a full quota.
#include <string>

#include <gtest/gtest.h>

#include "actors/core/unit_facts.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

struct Form {
  const char* value;
  const char* problem;
};

class InvalidQuantities : public ::testing::TestWithParam<Form> {};

TEST_P(InvalidQuantities, a_unit_is_not_admitted_reported_once_and_admitted_when_fixed) {
  const Form form = GetParam();
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "4"}}));
  d.input(queue("team-a"));
  schema::QueueUnit bad = unit("bad", "team-a", "1");
  bad.spec.resource["cpu"] = form.value;
  bad.spec.request["cpu"] = form.value;

  const auto first = d.input(bad);
  EXPECT_TRUE(of_kind(first, DecisionKind::kAdmit).empty());
  const auto reports = of_kind(first, DecisionKind::kInvalidQuantities);
  ASSERT_EQ(reports.size(), 1u);
  const std::string named = std::string("spec.resource[\"cpu\"] \"") + form.value + "\" " + form.problem;
  EXPECT_EQ(reports[0]->reason.rfind(named, 0), 0u) << reports[0]->reason;
  EXPECT_NE(reports[0]->reason.find(std::string("spec.request[\"cpu\"] \"") + form.value + "\""), std::string::npos);
  ASSERT_TRUE(reports[0]->status_patch && reports[0]->status_patch->message);
  EXPECT_NE(reports[0]->status_patch->message->find(named), std::string::npos);
  EXPECT_FALSE(reports[0]->status_patch->phase);  // it stays Enqueued
  ASSERT_EQ(reports[0]->events.size(), 1u);
  EXPECT_TRUE(reports[0]->events[0].warning);
  EXPECT_EQ(reports[0]->events[0].reason, "InvalidQuantity");
  EXPECT_NE(reports[0]->events[0].message.find(named), std::string::npos);

  const auto& u = d.s.units().at("default/bad");
  EXPECT_FALSE(u.waiting);
  EXPECT_FALSE(u.holds);
  EXPECT_TRUE(d.s.queues().at("team-a").waiting.empty());
  // Reported once: later rounds neither admit nor report again.
  const auto later = d.run_until(d.time + 30 * kSec, kSec);
  EXPECT_TRUE(of_kind(later, DecisionKind::kAdmit).empty());
  EXPECT_TRUE(of_kind(later, DecisionKind::kInvalidQuantities).empty());

  // Fixed: admitted, and its charge counts.
  schema::QueueUnit fixed = bad;
  fixed.spec.resource["cpu"] = "1";
  fixed.spec.request["cpu"] = "1";
  fixed.metadata.resource_version = "101";
  const auto after = d.input(fixed);
  ASSERT_EQ(of_kind(after, DecisionKind::kAdmit).size(), 1u);
  EXPECT_EQ(d.s.quotas().usage("team-a").used.at("cpu"), 1000);
  EXPECT_TRUE(d.s.units().at("default/bad").invalid_reported.empty());
}

INSTANTIATE_TEST_SUITE_P(Forms, InvalidQuantities,
                         ::testing::Values(Form{"abc", "does not parse"}, Form{"", "does not parse"},
                                           Form{"1.5.5Gi", "does not parse"}, Form{"-5", "is negative"},
                                           Form{"1e40", "is too large"}, Form{"true", "does not parse"}));

TEST(InvalidQuantitiesReport, a_new_invalid_value_is_reported_again_and_a_full_quota_is_not_bypassed) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "1"}}));
  d.input(queue("team-a"));
  ASSERT_EQ(of_kind(d.input(unit("full", "team-a", "1")), DecisionKind::kAdmit).size(), 1u);
  schema::QueueUnit bad = unit("bad", "team-a", "abc");
  ASSERT_EQ(of_kind(d.input(bad), DecisionKind::kInvalidQuantities).size(), 1u);
  bad.spec.resource["cpu"] = "-1";
  bad.metadata.resource_version = "101";
  const auto again = d.input(bad);
  ASSERT_EQ(of_kind(again, DecisionKind::kInvalidQuantities).size(), 1u);
  EXPECT_NE(of_kind(again, DecisionKind::kInvalidQuantities)[0]->reason.find("\"-1\" is negative"), std::string::npos);
  EXPECT_TRUE(of_kind(again, DecisionKind::kAdmit).empty());
  EXPECT_EQ(d.s.quotas().usage("team-a").used.at("cpu"), 1000);
}

TEST(InvalidQuantitiesFacts, pod_set_containers_are_checked_with_their_path) {
  schema::QueueUnit u = unit("u", "team-a", "1");
  schema::PodSet ps;
  ps.name = "worker";
  ps.count = 2;
  ps.containers.push_back({"main", {{"cpu", "1"}}, {{"memory", "lots"}}});
  u.spec.pod_set.push_back(ps);
  EXPECT_EQ(actors::invalid_quantities(u),
            "spec.podSet[0].containers[0].resources.limits[\"memory\"] \"lots\" does not parse");
  u.spec.pod_set[0].containers[0].limits["memory"] = "1Gi";
  EXPECT_EQ(actors::invalid_quantities(u), "");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
