#include <future>

#include <gtest/gtest.h>

#include "base/time_units.hpp"
#include "journal/keys.hpp"
#include "journal/retention.hpp"
#include "journal/verify.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

using base::kSecond;

std::unique_ptr<Journal> open_journal(const std::filesystem::path& dir) {
  JournalOptions o;
  o.dir = dir;
  o.on_corruption = CorruptionPolicy::kFail;
  auto j = Journal::open(o);
  if (!j.ok()) throw std::runtime_error(j.message());
  return std::move(j).value();
}

// Records 1..10 at times 1 s .. 10 s.
void append_ten(Journal& j) {
  for (int i = 1; i <= 10; ++i) {
    auto body = testing::tick_body();
    body->set_explicit_time(i * kSecond);
    std::promise<void> done;
    j.writer().append(std::move(body), [&](const Result<AppendedRecord>&) { done.set_value(); });
    done.get_future().wait();
  }
}

TEST(JournalRetention, drops_whole_ranges_that_end_at_a_snapshot) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  append_ten(*j);
  ASSERT_TRUE(j->put_snapshot(3, "s3").ok());
  ASSERT_TRUE(j->put_snapshot(6, "s6").ok());
  RetentionPolicy p;
  p.max_age_nanos = 5 * kSecond;  // newest is 10 s: records before 5 s (seq 1..4) expired
  auto r = apply_retention(*j, p);
  ASSERT_TRUE(r.ok()) << r.message();
  // Only up to the snapshot at 3 may go: revision 4 needs it.
  EXPECT_EQ(r->first_seq, 4u);
  EXPECT_EQ(r->dropped_records, 3u);
  EXPECT_EQ(j->reader().first_seq(), 4u);
  EXPECT_EQ(j->reader().first_seq_at_or_after(0), 4u);
  auto snap = j->reader().latest_snapshot_at_or_before(4);
  ASSERT_TRUE(snap.ok() && snap->has_value());
  EXPECT_EQ((*snap)->first, 3u);
}

TEST(JournalRetention, without_a_snapshot_before_the_cut_nothing_is_dropped) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  append_ten(*j);
  RetentionPolicy p;
  p.max_age_nanos = kSecond;
  auto r = apply_retention(*j, p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dropped_records, 0u);
  EXPECT_EQ(j->reader().first_seq(), 1u);
}

TEST(JournalRetention, drops_nothing_the_archive_does_not_hold) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  append_ten(*j);
  ASSERT_TRUE(j->put_snapshot(3, "s3").ok());
  ASSERT_TRUE(j->put_snapshot(6, "s6").ok());
  RetentionPolicy p;
  p.max_age_nanos = kSecond;  // every record but the newest has expired
  p.keep_after_seq = 4;       // the archive holds seq 1..4 only
  auto r = apply_retention(*j, p);
  ASSERT_TRUE(r.ok()) << r.message();
  // The cut may not pass seq 5, the first the archive lacks: only up to the snapshot at 3 goes.
  EXPECT_EQ(r->first_seq, 4u);
  EXPECT_EQ(j->reader().first_seq(), 4u);
  p.keep_after_seq = 0;  // the archive was not listed yet, or holds nothing
  r = apply_retention(*j, p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->dropped_records, 0u);
  EXPECT_EQ(j->reader().first_seq(), 4u);
  p.keep_after_seq = 10;  // all archived: the age limit alone decides
  r = apply_retention(*j, p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(j->reader().first_seq(), 7u);
}

TEST(JournalRetention, the_chain_stays_verifiable_from_the_cut_and_reopens) {
  testing::TempDir dir;
  {
    auto j = open_journal(dir.path());
    append_ten(*j);
    ASSERT_TRUE(j->put_snapshot(5, "s5").ok());
    RetentionPolicy p;
    p.max_age_nanos = 2 * kSecond;
    ASSERT_TRUE(apply_retention(*j, p).ok());
    EXPECT_EQ(j->reader().first_seq(), 6u);
    auto v = verify_journal(j->reader(), dir / "HEAD");
    ASSERT_TRUE(v.ok());
    EXPECT_FALSE(v->broken.has_value()) << v->broken->reason;
    EXPECT_EQ(v->first_seq, 6u);
  }
  auto j = open_journal(dir.path());  // kFail: a cut journal is not corrupt
  EXPECT_EQ(j->reader().first_seq(), 6u);
}

TEST(JournalRetention, keeps_the_newest_snapshots_and_the_one_the_oldest_revision_needs) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  append_ten(*j);
  for (uint64_t s : {2, 4, 6, 8}) ASSERT_TRUE(j->put_snapshot(s, "s").ok());
  RetentionPolicy p;
  p.max_age_nanos = 6 * kSecond;  // wanted first: seq 4; cut at snapshot 2
  p.keep_snapshots = 1;
  auto r = apply_retention(*j, p);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->first_seq, 3u);
  std::vector<uint64_t> left;
  for (const auto& s : j->reader().snapshots()) left.push_back(s.seq);
  EXPECT_EQ(left, (std::vector<uint64_t>{2, 8}));
  // The key-only index loses the dropped snapshots with them.
  for (uint64_t s : {2, 4, 6, 8}) {
    auto v = j->reader().meta(snapshot_index_key(s));
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(v->has_value(), s == 2 || s == 8) << "snapshot " << s;
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
