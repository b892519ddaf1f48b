// behaviour.md §5.1: the effective phase of a status.phase value.
#include "actors/core/unit_facts.hpp"

#include <gtest/gtest.h>

namespace koordq::actors {
namespace KOORDQ_TEST_LOCAL {

TEST(UnitFacts, every_phase_name_reads_back_as_its_phase) {
  for (Phase p :
       {Phase::kEnqueued, Phase::kReserved, Phase::kDequeued, Phase::kRunning, Phase::kSucceed, Phase::kFailed,
        Phase::kTimeoutBackoff, Phase::kSchedReady, Phase::kSchedSucceed, Phase::kSchedFailed}) {
    EXPECT_EQ(effective_phase(phase_name(p)), p) << phase_name(p);
    EXPECT_TRUE(is_known_phase(phase_name(p))) << phase_name(p);
  }
  EXPECT_EQ(effective_phase(""), Phase::kEnqueued);
  EXPECT_TRUE(is_known_phase(""));
}

TEST(UnitFacts, any_other_phase_value_is_sched_failed) {
  // Same length or first letter as a known name, other case, padding: none is that phase.
  for (const char* value : {"Runnin", "Runningg", "Rnning", "Rxnning", "Succeeded", "Succees", "failed", "FAILED",
                            "Enqueuee", "Reserves", "Dequeue", "Xequeued", "SchedReadx", "SchedSucceex",
                            "TimeoutBackof_", " Running", "Running ", "Pending", "?"}) {
    EXPECT_EQ(effective_phase(value), Phase::kSchedFailed) << value;
    EXPECT_FALSE(is_known_phase(value)) << value;
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors
