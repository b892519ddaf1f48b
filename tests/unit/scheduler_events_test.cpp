// The scheduling events of the catalogue on the QueueUnit: their type, reason and exact text
// (behaviour.md §13.1).
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

schema::QueueUnit running_unit(const std::string& name) {
  schema::QueueUnit u = unit(name, "q", "1", 0, 100);
  u.status.phase = "Running";
  u.status.admissions = {{"koord-queue/default-requirement", 1, std::nullopt, 1, std::nullopt}};
  return u;
}

struct PhaseEventCase {
  std::string phase;
  std::string reason;
  std::string message;
};

TEST(SchedulerEvents, an_observed_sched_succeed_or_sched_failed_is_recorded_once_as_a_normal_event) {
  const std::vector<PhaseEventCase> cases = {
      {"SchedSucceed", "Scheduled", "QueueUnit has been scheduled"},
      {"SchedFailed", "FailedScheduling", "job failed: worker-0 exited with code 1"},  // the unit's message
  };
  for (const auto& c : cases) {
    SchedulerDriver d;
    d.input(quota("q", "", {{"cpu", "4"}}));
    d.input(queue("q"));
    auto u = running_unit("job1");
    d.input(u);
    u.status.phase = c.phase;
    u.status.message = "job failed: worker-0 exited with code 1";
    u.metadata.resource_version = "700";
    d.at(d.time + kSec);
    const auto round = d.input(u);
    const auto events = of_kind(round, DecisionKind::kPhaseEvent);
    ASSERT_EQ(events.size(), 1u) << c.phase;
    ASSERT_EQ(events[0]->events.size(), 1u);
    const auto& e = events[0]->events[0];
    EXPECT_FALSE(e.warning) << c.phase;
    EXPECT_EQ(e.reason, c.reason) << c.phase;
    EXPECT_EQ(e.message, c.message) << c.phase;
    EXPECT_EQ(e.involved_object.kind, "QueueUnit");
    EXPECT_EQ(e.involved_object.name, "job1");
    EXPECT_TRUE(of_kind(d.run_until(d.time + kSec, 100 * kMs), DecisionKind::kPhaseEvent).empty()) << c.phase;
  }
}

TEST(SchedulerEvents, a_failed_attempt_records_a_warning_with_the_status_message) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(queue("q"));
  const auto round = d.input(unit("job1", "q", "2"));
  const auto fails = of_kind(round, DecisionKind::kFail);
  ASSERT_EQ(fails.size(), 1u);
  ASSERT_EQ(fails[0]->events.size(), 1u);
  const auto& e = fails[0]->events[0];
  EXPECT_TRUE(e.warning);
  EXPECT_EQ(e.reason, "FailedScheduling");
  EXPECT_EQ(e.message, "limited quotaName:q, limited resKey:cpu,");
  EXPECT_EQ(fails[0]->status_patch->message, e.message);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
