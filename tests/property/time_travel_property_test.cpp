// Time travel (behaviour.md §18) against the live fold: the records of a generated scenario (fixed by
// its seed, played by scenario_journal.hpp) go into a real journal with a snapshot every few
// records, the state the router's fold holds after each record is kept, and the state time travel
// serves at every revision, and at every record's time, is the one kept for that revision.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "api/time_travel.hpp"
#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "replay/state_diff.hpp"
#include "tests/property/recorded_journal.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/scenario_journal.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::describe_differences;
using replay::state_differences;

// The generators' size for the scenarios: journals of a few hundred records.
constexpr int kScenarioSize = 50;

api::PointInTime revision(uint64_t seq) {
  api::PointInTime p;
  p.kind = api::PointInTime::Kind::kRevision;
  p.revision = seq;
  return p;
}

api::PointInTime as_of(int64_t time) {
  api::PointInTime p;
  p.kind = api::PointInTime::Kind::kTime;
  p.time = time;
  p.text = std::to_string(time);
  return p;
}

// Reads the state at `at`; it must be the state after record `expected_revision`.
void expect_state(api::TimeTravel& time_travel, const api::PointInTime& at, uint64_t expected_revision,
                  const actors::Scheduler& expected) {
  uint64_t served = 0;
  std::vector<std::string> differences;
  const auto error = time_travel.read(at, [&](const actors::Scheduler& state, uint64_t rev) {
    served = rev;
    differences = state_differences(state, expected);
  });
  ASSERT_FALSE(error) << error->code << " " << error->message;
  EXPECT_EQ(served, expected_revision);
  EXPECT_TRUE(differences.empty()) << "differs from the live state: " << describe_differences(differences);
}

// A generated scenario fixed by its seed, and the snapshot spacing of its journal.
struct Case {
  uint64_t seed = 0;
  uint64_t snapshot_every = 0;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << "seed " << c.seed << ", a snapshot every " << c.snapshot_every << " records";
}

class TimeTravelAtEverySeq : public ::testing::TestWithParam<Case> {};

TEST_P(TimeTravelAtEverySeq, the_state_at_every_revision_and_every_record_time_is_the_live_state_there) {
  const auto scenario = testgen::scenario()(rc::Random(GetParam().seed), kScenarioSize).value();
  const auto records = ScenarioJournal::record(scenario);
  const uint64_t spacing = GetParam().snapshot_every;
  ASSERT_GE(records.size(), 150u) << "a journal this small tests little";

  // The live fold, kept after every record: live[seq] is the state after record seq.
  std::vector<actors::Scheduler> live(1, actors::Scheduler(scenario.config));
  live.reserve(records.size() + 1);
  for (const auto& record : records) {
    live.push_back(live.back());
    const auto applied = actors::apply_record(live.back(), record);
    ASSERT_TRUE(applied.ok()) << applied.message();
  }

  TempDir dir;
  int64_t now = ScenarioJournal::kStart;
  journal::RecordClock clock{[&] { return now; }, [&] { return now; }};
  auto journal = open_test_journal(dir.path(), clock);
  const auto appended = append_copies(*journal, records);
  ASSERT_TRUE(appended.ok()) << appended.message();
  for (size_t i = 0; i < records.size(); ++i) {
    ASSERT_EQ((*appended)[i].seq, records[i].seq());
    ASSERT_EQ((*appended)[i].hash, records[i].hash()) << "seq " << records[i].seq();
  }
  for (uint64_t seq = spacing; seq <= records.size(); seq += spacing) {
    const auto written =
        actors::write_state_snapshot(*journal, live[seq], seq, records[seq - 1].time(), journal->uuid());
    ASSERT_TRUE(written.ok()) << written.message();
  }
  ASSERT_EQ(journal->reader().snapshots().size(), records.size() / spacing);

  const uint64_t last = records.size();
  api::TimeTravel time_travel({4, 64u << 20, scenario.config}, journal->reader(),
                              [&](const api::StateRead& read) { read(live[last], last); });
  // Every revision once (reconstructed; the last from the live state), then every record time:
  // the last record at that time, mostly from the cache.
  for (uint64_t seq = 1; seq <= last; ++seq) {
    SCOPED_TRACE("revision " + std::to_string(seq));
    expect_state(time_travel, revision(seq), seq, live[seq]);
    if (::testing::Test::HasFailure()) return;
  }
  for (uint64_t seq = 1; seq <= last; ++seq) {
    const int64_t time = records[seq - 1].time();
    if (seq < last && records[seq].time() == time) continue;
    SCOPED_TRACE("asOf the time of record " + std::to_string(seq));
    expect_state(time_travel, as_of(time), seq, live[seq]);
    if (::testing::Test::HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, TimeTravelAtEverySeq,
                         ::testing::Values(Case{3, 1}, Case{9, 4}, Case{10, 7}, Case{2, 16}), [](const auto& info) {
                           return "seed" + std::to_string(info.param.seed) + "_snapshot_every_" +
                                  std::to_string(info.param.snapshot_every);
                         });

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
