// `koordq explain` over a journal's per-unit index (journal/unit_index.hpp): the index names
// exactly the records of each unit, the indexed story (snapshots restored to skip what does not
// touch the unit) equals the story told from every record, a journal written before the index is
// folded from its first record, and retention drops the keys of the records it drops.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "journal/journal.hpp"
#include "journal/unit_index.hpp"
#include "replay/explain.hpp"
#include "replay/explain_fold.hpp"
#include "tests/support/story_journal.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using namespace story;
using replay::Story;
using replay::StoryEntry;
using ::testing::ElementsAre;

// A stored record appended again: the same canonical bytes, since the journal it goes to has the
// same UUID and is at the same seq.
class StoredBody final : public journal::RecordBody {
 public:
  explicit StoredBody(const journal::StoredRecord& record) : record_(record) {}
  journal::RecordKind kind() const override { return record_.kind(); }
  std::string canonical_bytes(uint64_t seq, int64_t, const journal::Hash&) const override {
    if (seq != record_.seq()) throw std::runtime_error("appended at seq " + std::to_string(seq));
    return std::string(record_.canonical_bytes());
  }
  std::optional<int64_t> explicit_time() const override { return record_.time(); }

 private:
  const journal::StoredRecord& record_;
};

// The records and snapshots of `j` in a journal in `dir` (with the per-unit index).
std::unique_ptr<journal::Journal> write_journal(const StoryJournal& j, const std::filesystem::path& dir,
                                                journal::RecordClock& clock) {
  auto journal = open_test_journal(dir, clock, kJournalUuid);
  std::promise<void> all;
  std::atomic<size_t> acked{0};
  std::atomic<bool> failed{false};
  const size_t total = j.records().size();
  for (const auto& r : j.records()) {
    journal->writer().append(std::make_unique<StoredBody>(r), [&](const Result<journal::AppendedRecord>& a) {
      if (!a.ok()) failed = true;
      if (++acked == total) all.set_value();
    });
  }
  all.get_future().wait();
  if (failed) throw std::runtime_error("an append failed");
  for (const auto& [seq, bytes] : j.snapshots()) {
    if (Status s = journal->put_snapshot(seq, bytes); !s.ok()) throw std::runtime_error(s.message());
  }
  return journal;
}

// The seqs of `j`'s records that name NS/NAME, read from the records themselves.
std::vector<uint64_t> seqs_naming(const StoryJournal& j, const std::string& unit) {
  std::vector<uint64_t> seqs;
  for (const auto& r : j.records()) {
    const auto units = journal::units_named_by(r.reader());
    if (std::find(units.begin(), units.end(), unit) != units.end()) seqs.push_back(r.seq());
  }
  return seqs;
}

// Units that arrive, wait behind a full quota, are admitted as others finish, with long stretches of
// ticks between (which the indexed fold skips by restoring snapshots), then are deleted.
StoryJournal busy_queue() {
  StoryJournal j;
  j.snapshot_every(16);
  j.added(quota("q", "", {{"cpu", "2"}}));
  j.added(queue("q"));
  std::vector<schema::QueueUnit> units;
  for (int i = 0; i < 6; ++i) {
    units.push_back(unit("job" + std::to_string(i), "q", "1"));
    units.back().metadata.uid = "uid-" + std::to_string(i);
    j.later(kSec);
    j.added(units.back());
    const auto decisions = j.round();
    for (uint32_t d = 0; d < decisions.size(); ++d) {
      if (decisions[d].kind == DecisionKind::kAdmit) j.outcome(decisions, d, actors::OutcomeResult::kSuccess, 200);
    }
    for (int t = 0; t < 40; ++t) {
      j.later(kSec);
      j.tick();
    }
    if (i >= 2) {
      j.later(kSec);
      j.deleted(units[i - 2]);
      const auto after = j.round();
      for (uint32_t d = 0; d < after.size(); ++d) {
        if (after[d].kind == DecisionKind::kAdmit) j.outcome(after, d, actors::OutcomeResult::kSuccess, 200);
      }
    }
  }
  return j;
}

class ExplainIndex : public ::testing::Test {
 protected:
  TempDir dir_;
  int64_t now_ = kStart;
  journal::RecordClock clock_{[this] { return now_; }, [this] { return now_; }};
};

TEST_F(ExplainIndex, names_exactly_the_records_of_each_unit) {
  const StoryJournal j = busy_queue();
  auto journal = write_journal(j, dir_.path(), clock_);
  for (int i = 0; i < 6; ++i) {
    const std::string name = "job" + std::to_string(i);
    auto touches = journal::unit_touches(journal->store(), "default", name, 1, j.last_seq());
    ASSERT_TRUE(touches.ok()) << touches.message();
    ASSERT_TRUE(touches->has_value());
    EXPECT_EQ(**touches, seqs_naming(j, "default/" + name)) << name;
    EXPECT_GE((*touches)->size(), 2u) << name;  // added, deleted or decided
  }
  auto none = journal::unit_touches(journal->store(), "default", "job", 1, j.last_seq());
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE((*none)->empty()) << "a name that is a prefix of others names none of their records";
  auto clamped = journal::unit_touches(journal->store(), "default", "job0", 1, 3);
  ASSERT_TRUE(clamped.ok());
  EXPECT_THAT(**clamped, ElementsAre(3));
}

TEST_F(ExplainIndex, the_indexed_story_of_every_unit_equals_the_story_of_every_record) {
  const StoryJournal j = busy_queue();
  auto journal = write_journal(j, dir_.path(), clock_);
  for (int i = 0; i < 6; ++i) {
    const std::string name = "job" + std::to_string(i);
    auto plan = replay::plan_story(journal->reader(), "default", name, 1, j.last_seq());
    ASSERT_TRUE(plan.ok()) << plan.message();
    ASSERT_TRUE(plan->indexed);
    EXPECT_LT(plan->records(), j.last_seq()) << name;
    replay::StoryFolder indexed("default", name);
    uint64_t folded = 0;
    // Restoring across any stretch of more than 8 records without the unit: the 40-tick gaps.
    const Status s = replay::fold_story(
        journal->reader(), *plan, indexed, [&](uint64_t, uint64_t records) { folded = records; }, 8);
    ASSERT_TRUE(s.ok()) << s.message();
    // job0..job3 are deleted two arrivals after their own, across ticks the fold restores over.
    if (i <= 3) {
      EXPECT_LT(folded, plan->records()) << name << ": the gaps were restored, not folded";
    }
    const replay::StoryFolder every = j.fold("default", name);
    ASSERT_TRUE(every.latest_uid().has_value());
    EXPECT_EQ(indexed.uids(), every.uids());
    EXPECT_EQ(indexed.story(*every.latest_uid()).entries, every.story(*every.latest_uid()).entries) << name;
  }
  replay::StoryFolder unknown("default", "nobody");
  auto plan = replay::plan_story(journal->reader(), "default", "nobody", 1, j.last_seq());
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(replay::fold_story(journal->reader(), *plan, unknown).ok());
  EXPECT_FALSE(unknown.latest_uid().has_value());
}

TEST_F(ExplainIndex, a_journal_written_before_the_index_is_folded_from_its_first_record) {
  const StoryJournal j = busy_queue();
  {
    auto journal = write_journal(j, dir_.path(), clock_);
    ASSERT_TRUE(journal->store()
                    .db()
                    .Delete(rocksdb::WriteOptions(), journal->store().meta(), journal::kMetaUnitIndexFrom)
                    .ok());
  }
  // Opened again by a binary with the index: indexed from the next record on.
  auto journal = open_test_journal(dir_.path(), clock_, kJournalUuid);
  auto from = journal->reader().meta(journal::kMetaUnitIndexFrom);
  ASSERT_TRUE(from.ok());
  EXPECT_EQ(from->value_or(""), std::to_string(j.last_seq() + 1));
  auto plan = replay::plan_story(journal->reader(), "default", "job3", 1, j.last_seq());
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->indexed);
  EXPECT_EQ(plan->records(), j.last_seq());
  replay::StoryFolder folder("default", "job3");
  ASSERT_TRUE(replay::fold_story(journal->reader(), *plan, folder).ok());
  EXPECT_EQ(folder.story("uid-3").entries, j.fold("default", "job3").story("uid-3").entries);
}

TEST_F(ExplainIndex, retention_drops_the_keys_of_the_dropped_records) {
  const StoryJournal j = busy_queue();
  auto journal = write_journal(j, dir_.path(), clock_);
  const std::vector<uint64_t> all = seqs_naming(j, "default/job1");
  const uint64_t cut = all[all.size() / 2];
  auto dropped = journal::drop_unit_index_before(journal->store(), cut);
  ASSERT_TRUE(dropped.ok()) << dropped.message();
  EXPECT_GT(*dropped, 0u);
  auto touches = journal::unit_touches(journal->store(), "default", "job1", 1, j.last_seq());
  ASSERT_TRUE(touches.ok());
  std::vector<uint64_t> kept;
  for (const uint64_t s : all) {
    if (s >= cut) kept.push_back(s);
  }
  EXPECT_EQ(**touches, kept);
}

TEST(UnitIndex, names_units_of_watch_round_and_outcome_records_only) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "4"}}));
  j.added(queue("q"));
  j.added(unit("a", "q", "1"));
  j.added(unit("b", "q", "1"));
  const auto decisions = j.round();
  const int admit = index_of(decisions, DecisionKind::kAdmit);
  ASSERT_GE(admit, 0);
  j.outcome(decisions, static_cast<uint32_t>(admit), actors::OutcomeResult::kSuccess, 200);
  j.tick();
  const auto& r = j.records();
  EXPECT_TRUE(journal::units_named_by(r[0].reader()).empty()) << "an ElasticQuota";
  EXPECT_TRUE(journal::units_named_by(r[1].reader()).empty()) << "a Queue";
  EXPECT_THAT(journal::units_named_by(r[2].reader()), ElementsAre("default/a"));
  std::vector<std::string> round_units;  // each once, in the order the round names them
  for (const auto& d : decisions) {
    const auto* u = std::get_if<actors::UnitRef>(&d.target);
    if (u == nullptr) continue;
    const std::string key = u->namespace_ + "/" + u->name;
    if (std::find(round_units.begin(), round_units.end(), key) == round_units.end()) round_units.push_back(key);
  }
  ASSERT_FALSE(round_units.empty());
  EXPECT_EQ(journal::units_named_by(r[4].reader()), round_units);
  const auto& admitted = std::get<actors::UnitRef>(decisions[admit].target);
  EXPECT_THAT(journal::units_named_by(r[5].reader()), ElementsAre("default/" + admitted.name));
  EXPECT_TRUE(journal::units_named_by(r[6].reader()).empty()) << "a tick";
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
