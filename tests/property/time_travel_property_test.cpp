// Time travel (behaviour.md §18) against the live fold: the records of a generated scenario (fixed by
// its seed, played by scenario_journal.hpp) go into a real journal with a snapshot every few
// records, the state the router's fold holds after each record is kept, and the state time travel
// serves at every revision, and at every record's time, is the one kept for that revision; the
// state the console shows at a revision, in any order of visits, is the one `koordq at` rebuilds.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "api/time_travel.hpp"
#include "console/journal_states.hpp"
#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "replay/replay.hpp"
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

// A scenario's records in a real journal with a snapshot every `snapshot_every` records, and the
// live fold kept after every record: live[seq] is the state after record seq.
struct RecordedScenario {
  TempDir dir;
  int64_t now = ScenarioJournal::kStart;
  journal::RecordClock clock{[this] { return now; }, [this] { return now; }};
  std::unique_ptr<journal::Journal> journal;
  std::vector<journal::StoredRecord> records;
  std::vector<actors::Scheduler> live;
  actors::DecisionConfig config;

  // Fails the calling test (ASSERT) when the journal cannot be written.
  void record(const Case& c) {
    const auto scenario = testgen::scenario()(rc::Random(c.seed), kScenarioSize).value();
    config = scenario.config;
    records = ScenarioJournal::record(scenario);
    ASSERT_GE(records.size(), 150u) << "a journal this small tests little";
    live.assign(1, actors::Scheduler(scenario.config));
    live.reserve(records.size() + 1);
    for (const auto& record : records) {
      live.push_back(live.back());
      const auto applied = actors::apply_record(live.back(), record);
      ASSERT_TRUE(applied.ok()) << applied.message();
    }
    journal = open_test_journal(dir.path(), clock);
    const auto appended = append_copies(*journal, records);
    ASSERT_TRUE(appended.ok()) << appended.message();
    for (size_t i = 0; i < records.size(); ++i) {
      ASSERT_EQ((*appended)[i].seq, records[i].seq());
      ASSERT_EQ((*appended)[i].hash, records[i].hash()) << "seq " << records[i].seq();
    }
    for (uint64_t seq = c.snapshot_every; seq <= records.size(); seq += c.snapshot_every) {
      const auto written =
          actors::write_state_snapshot(*journal, live[seq], seq, records[seq - 1].time(), journal->uuid());
      ASSERT_TRUE(written.ok()) << written.message();
    }
    ASSERT_EQ(journal->reader().snapshots().size(), records.size() / c.snapshot_every);
  }
};

TEST_P(TimeTravelAtEverySeq, the_state_at_every_revision_and_every_record_time_is_the_live_state_there) {
  RecordedScenario recorded;
  ASSERT_NO_FATAL_FAILURE(recorded.record(GetParam()));
  const auto& records = recorded.records;
  const auto& live = recorded.live;
  auto& journal = recorded.journal;
  const uint64_t last = records.size();
  api::TimeTravel time_travel({4, 64u << 20, recorded.config}, journal->reader(),
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

// The console's states (console/journal_states.hpp) are the states `koordq at` rebuilds
// (replay::replay_to), however the revisions are visited: stepping forward folds on from the state cached before
// (taking it out of the cache), stepping back and jumping restore from a snapshot or from a cached state before; with a
// cache that holds no state, about one, or many.
TEST_P(TimeTravelAtEverySeq, the_console_shows_what_at_rebuilds_stepping_forward_back_and_jumping) {
  RecordedScenario recorded;
  ASSERT_NO_FATAL_FAILURE(recorded.record(GetParam()));
  const uint64_t last = recorded.records.size();
  std::vector<uint64_t> visits;
  for (uint64_t seq = 1; seq <= last; ++seq) visits.push_back(seq);
  for (uint64_t seq = last; seq >= 1; seq -= std::min<uint64_t>(seq, 3)) visits.push_back(seq);
  std::mt19937_64 rng(GetParam().seed);
  for (int i = 0; i < 200; ++i) visits.push_back(std::uniform_int_distribution<uint64_t>(1, last)(rng));
  // What `koordq at` rebuilds at each revision (under the journal's own configuration: these
  // records carry no config record, so the default one until the first snapshot).
  std::vector<actors::Scheduler> expected(1);
  for (uint64_t seq = 1; seq <= last; ++seq) {
    auto replayed = replay::replay_to(recorded.journal->reader(), seq);
    ASSERT_TRUE(replayed.ok()) << replayed.message();
    expected.push_back(std::move(replayed->scheduler));
  }
  const size_t one_state = api::TimeTravel::estimated_size(recorded.live[last]) * 3 / 2;
  for (const size_t cache_bytes : {size_t{1}, one_state, size_t{64} << 20}) {
    console::JournalStates states(recorded.journal->reader(), cache_bytes);
    for (const uint64_t seq : visits) {
      SCOPED_TRACE("revision " + std::to_string(seq) + ", cache " + std::to_string(cache_bytes) + " bytes");
      uint64_t served = 0;
      std::vector<std::string> differences;
      const auto error = states.read(seq, [&](const actors::Scheduler& state, uint64_t revision) {
        served = revision;
        differences = state_differences(state, expected[seq]);
      });
      ASSERT_FALSE(error) << error->message;
      EXPECT_EQ(served, seq);
      ASSERT_TRUE(differences.empty()) << "differs from the state replay_to rebuilds: "
                                       << describe_differences(differences);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Scenarios, TimeTravelAtEverySeq,
                         ::testing::Values(Case{3, 1}, Case{9, 4}, Case{10, 7}, Case{2, 16}), [](const auto& info) {
                           return "seed" + std::to_string(info.param.seed) + "_snapshot_every_" +
                                  std::to_string(info.param.snapshot_every);
                         });

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
