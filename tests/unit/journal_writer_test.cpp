// GroupCommitWriter's batch appends and its unsynced mode (the virtual-clock simulator's journal).
#include <chrono>
#include <future>
#include <memory>
#include <vector>

#include <gtest/gtest.h>

#include "journal/chain_check.hpp"
#include "journal/head_file.hpp"
#include "journal/journal.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

using testing::tick_body;

std::unique_ptr<Journal> open_journal(const std::filesystem::path& dir, WriterOptions writer) {
  JournalOptions o;
  o.dir = dir;
  o.on_corruption = CorruptionPolicy::kFail;
  o.new_uuid = "00000000-0000-4000-8000-000000000002";
  o.writer = writer;
  auto j = Journal::open(o);
  if (!j.ok()) throw std::runtime_error(j.message());
  return std::move(j).value();
}

// The seqs of n tick records appended with append_all, once every one is acknowledged; the
// future is not ready while any is outstanding.
std::future<std::vector<uint64_t>> append_ticks(GroupCommitWriter& w, size_t n) {
  struct Acks {
    std::mutex mu;
    std::vector<uint64_t> seqs;
    size_t outstanding;
    std::promise<std::vector<uint64_t>> done;
  };
  auto acks = std::make_shared<Acks>();
  acks->seqs.assign(n, 0);
  acks->outstanding = n;
  std::vector<std::unique_ptr<RecordBody>> bodies;
  for (size_t i = 0; i < n; ++i) bodies.push_back(tick_body());
  auto done = acks->done.get_future();
  w.append_all(std::move(bodies), [acks](size_t i, const Result<AppendedRecord>& r) {
    std::lock_guard lock(acks->mu);
    acks->seqs[i] = r.ok() ? r->seq : 0;
    if (--acks->outstanding == 0) acks->done.set_value(acks->seqs);
  });
  return done;
}

TEST(JournalWriter, append_all_acknowledges_each_body_with_its_seq_in_order) {
  testing::TempDir dir;
  auto j = open_journal(dir.path(), WriterOptions{});
  EXPECT_EQ(append_ticks(j->writer(), 3).get(), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(append_ticks(j->writer(), 2).get(), (std::vector<uint64_t>{4, 5}));
  EXPECT_EQ(j->writer().durable_head().seq, 5u);
}

TEST(JournalWriter, a_waited_batch_is_written_without_lingering_for_more_records) {
  testing::TempDir dir;
  WriterOptions slow_linger;
  slow_linger.max_batch_delay_nanos = 600LL * 1'000'000'000;  // a linger would outlast the test
  auto j = open_journal(dir.path(), slow_linger);
  // A group of 8 makes the writer wait for 8 records before writing the next group; a producer
  // that waits for its own batch of 1 must not wait for 7 that nobody will send.
  ASSERT_EQ(append_ticks(j->writer(), 8).get().back(), 8u);
  auto single = append_ticks(j->writer(), 1);
  ASSERT_EQ(single.wait_for(std::chrono::seconds(60)), std::future_status::ready);
  EXPECT_EQ(single.get(), (std::vector<uint64_t>{9}));
}

TEST(JournalWriter, an_unsynced_journal_keeps_every_record_and_head_names_the_last_at_close) {
  testing::TempDir dir;
  WriterOptions unsynced;
  unsynced.sync = false;
  {
    auto j = open_journal(dir.path(), unsynced);
    for (int round = 0; round < 20; ++round) ASSERT_EQ(append_ticks(j->writer(), 5).get().size(), 5u);
    EXPECT_EQ(j->writer().durable_head().seq, 100u);
  }
  auto head = read_head_file(dir.path() / "HEAD");
  ASSERT_TRUE(head.ok() && head->has_value()) << head.message();
  EXPECT_EQ((*head)->seq, 100u);
  auto j = open_journal(dir.path(), WriterOptions{});
  EXPECT_EQ(j->open_report().truncated_records, 0u);
  EXPECT_EQ(j->reader().last_seq(), 100u);
  const auto check = check_chain(j->reader(), ChainHead{0, genesis_hash(j->uuid())}, INT64_MIN);
  EXPECT_FALSE(check.first_break.has_value());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
