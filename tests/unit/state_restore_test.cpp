// Restoring the decision state from a real journal (actors/wire/state_restore.hpp): the newest
// usable snapshot plus the records after it is the full replay at every seq; an unusable snapshot
// falls back to an older one or the empty state, and a snapshot of another journal is not used.
#include "actors/wire/state_restore.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/recorded_state.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::describe_differences;
using replay::state_differences;

class JournalRestore : public ::testing::Test {
 protected:
  void SetUp() override {
    journal::JournalOptions options;
    options.dir = dir_.path();
    options.new_uuid = kRecordedRunUuid;
    options.clock = &clock_;
    auto opened = journal::Journal::open(options);
    ASSERT_TRUE(opened.ok()) << opened.message();
    journal_ = std::move(opened).value();
  }

  // The full replay of records 1..seq.
  actors::Scheduler replay(uint64_t seq) {
    actors::Scheduler s;
    auto cursor = journal_->reader().cursor(1, seq);
    while (true) {
      auto next = cursor.next();
      if (!next.ok()) throw std::runtime_error(next.message());
      if (!next->has_value()) break;
      const auto applied = actors::apply_record(s, **next);
      if (!applied.ok()) throw std::runtime_error(applied.message());
    }
    return s;
  }

  void snapshot(RecordedRun& r) {
    ASSERT_TRUE(actors::write_state_snapshot(*journal_, r.live, r.last_seq(), r.last_time(), journal_->uuid()).ok());
  }

  TempDir dir_;
  int64_t now_ = 1000 * kSec;  // the record clock; RecordedRun sets it
  journal::RecordClock clock_{[this] { return now_; }, [this] { return now_; }};
  std::unique_ptr<journal::Journal> journal_;
};

TEST_F(JournalRestore, a_snapshot_plus_the_records_after_it_is_the_full_replay_at_every_seq) {
  RecordedRun r({}, journal_.get(), &now_);
  build_part1(r);
  snapshot(r);
  const uint64_t first_snapshot = r.last_seq();
  r.time += kSec;
  build_part2(r);
  snapshot(r);
  const uint64_t second_snapshot = r.last_seq();
  r.time += kSec;
  build_part3(r);
  const uint64_t last = r.last_seq();
  EXPECT_EQ(journal_->reader().snapshots().size(), 2u);

  for (uint64_t target = 0; target <= last + 3; ++target) {
    auto restored = actors::restore_state(journal_->reader(), target, {});
    ASSERT_TRUE(restored.ok()) << restored.message();
    EXPECT_EQ(restored->seq, std::min(target, last));
    const std::optional<uint64_t> expected_snapshot =
        target >= second_snapshot  ? std::optional<uint64_t>(second_snapshot)
        : target >= first_snapshot ? std::optional<uint64_t>(first_snapshot)
                                   : std::nullopt;
    EXPECT_EQ(restored->snapshot_seq, expected_snapshot) << "target " << target;
    const auto differences = state_differences(restored->scheduler, replay(target));
    ASSERT_TRUE(differences.empty()) << "target " << target << ": " << describe_differences(differences);
  }
  auto at_end = actors::restore_state(journal_->reader(), last, {});
  ASSERT_TRUE(at_end.ok());
  EXPECT_TRUE(state_differences(at_end->scheduler, r.live).empty());
  EXPECT_EQ(at_end->applied_records, last - second_snapshot);
}

TEST_F(JournalRestore, an_unusable_snapshot_falls_back_to_an_older_one_or_the_empty_state) {
  RecordedRun r({}, journal_.get(), &now_);
  build_part1(r);
  snapshot(r);
  const uint64_t good = r.last_seq();
  r.time += kSec;
  build_part2(r);
  const uint64_t garbage_at = r.last_seq();
  ASSERT_TRUE(journal_->put_snapshot(garbage_at, "garbage!").ok());
  build_part3(r);
  const uint64_t last = r.last_seq();
  // Taken under another configuration: refused, like the garbage.
  actors::DecisionConfig other;
  other.max_backoff_nanos = 60 * kSec;
  ASSERT_TRUE(
      actors::write_state_snapshot(*journal_, actors::Scheduler(other), last, r.last_time(), journal_->uuid()).ok());

  auto restored = actors::restore_state(journal_->reader(), last, {});
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_EQ(restored->snapshot_seq, std::optional<uint64_t>(good));
  EXPECT_TRUE(state_differences(restored->scheduler, r.live).empty());

  // Only unusable snapshots: the fold starts from the empty state.
  auto early = actors::restore_state(journal_->reader(), good - 1, {});
  ASSERT_TRUE(early.ok()) << early.message();
  EXPECT_FALSE(early->snapshot_seq.has_value());
  EXPECT_TRUE(state_differences(early->scheduler, replay(good - 1)).empty());
}

TEST_F(JournalRestore, a_snapshot_of_another_journal_is_not_used) {
  RecordedRun r({}, journal_.get(), &now_);
  build_part1(r);
  ASSERT_TRUE(actors::write_state_snapshot(*journal_, r.live, r.last_seq(), r.last_time(),
                                           "00000000-0000-4000-8000-0000000000bb")
                  .ok());
  build_part2(r);
  auto restored = actors::restore_state(journal_->reader(), r.last_seq(), {});
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_FALSE(restored->snapshot_seq.has_value());
  EXPECT_TRUE(state_differences(restored->scheduler, r.live).empty());
}

TEST_F(JournalRestore, an_empty_journal_restores_the_empty_state) {
  auto restored = actors::restore_state(journal_->reader(), 100, {});
  ASSERT_TRUE(restored.ok()) << restored.message();
  EXPECT_EQ(restored->seq, 0u);
  EXPECT_TRUE(state_differences(restored->scheduler, actors::Scheduler()).empty());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
