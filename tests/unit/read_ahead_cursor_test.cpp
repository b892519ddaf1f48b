#include "journal/read_ahead_cursor.hpp"

#include <chrono>
#include <future>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <rocksdb/write_batch.h>

#include "journal/journal.hpp"
#include "journal/keys.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

constexpr uint64_t kRecords = 1000;

std::unique_ptr<Journal> journal_of_ticks(const std::filesystem::path& dir) {
  JournalOptions o;
  o.dir = dir;
  o.new_uuid = "00000000-0000-4000-8000-000000000002";
  auto j = Journal::open(o);
  if (!j.ok()) throw std::runtime_error(j.message());
  std::vector<std::future<void>> acks;
  for (uint64_t i = 0; i < kRecords; ++i) {
    auto done = std::make_shared<std::promise<void>>();
    acks.push_back(done->get_future());
    (*j)->writer().append(testing::tick_body(), [done](const Result<AppendedRecord>&) { done->set_value(); });
  }
  for (auto& a : acks) a.wait();
  return std::move(j).value();
}

// What a cursor yields: the seqs, then the error text or "" at the end.
template <class Cursor>
std::pair<std::vector<uint64_t>, std::string> drain(Cursor& cursor) {
  std::vector<uint64_t> seqs;
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) return {seqs, next.message()};
    if (!*next) return {seqs, ""};
    seqs.push_back((*next)->seq());
  }
}

struct Shape {
  size_t batch_records;
  size_t max_batches;
};

class ReadAheadCursorTest : public ::testing::TestWithParam<Shape> {};

TEST_P(ReadAheadCursorTest, yields_what_the_cursor_yields_within_the_bounds) {
  testing::TempDir dir;
  auto j = journal_of_ticks(dir.path());
  for (auto [from, to] : {std::pair<uint64_t, uint64_t>{1, UINT64_MAX}, {10, 777}, {1000, 1000}, {1001, 2000}}) {
    RecordCursor plain = j->reader().cursor(from, to);
    ReadAheadCursor ahead(j->reader().cursor(from, to), GetParam().batch_records, GetParam().max_batches);
    const auto expected = drain(plain);
    EXPECT_EQ(drain(ahead), expected) << from << ".." << to;
    EXPECT_EQ(expected.first.size(), from > kRecords ? 0 : std::min(to, kRecords) - from + 1);
    // At the end it stays at the end.
    auto again = ahead.next();
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, nullptr);
  }
}

TEST_P(ReadAheadCursorTest, a_gap_is_the_same_error_after_the_same_records) {
  testing::TempDir dir;
  auto j = journal_of_ticks(dir.path());
  rocksdb::WriteBatch b;
  b.Delete(j->store().log(), seq_key(500));
  ASSERT_TRUE(j->store().write(b, true).ok());
  RecordCursor plain = j->reader().cursor(1);
  ReadAheadCursor ahead(j->reader().cursor(1), GetParam().batch_records, GetParam().max_batches);
  const auto expected = drain(plain);
  ASSERT_EQ(expected.first.size(), 499u);
  EXPECT_EQ(expected.second, "seq 500 is missing (the next record is seq 501)");
  EXPECT_EQ(drain(ahead), expected);
}

TEST_P(ReadAheadCursorTest, a_consumer_may_stop_early) {
  testing::TempDir dir;
  auto j = journal_of_ticks(dir.path());
  for (int read = 0; read < 3; ++read) {
    ReadAheadCursor ahead(j->reader().cursor(1), GetParam().batch_records, GetParam().max_batches);
    for (int i = 0; i < read; ++i) {
      auto next = ahead.next();
      ASSERT_TRUE(next.ok() && *next != nullptr);
      EXPECT_EQ((*next)->seq(), static_cast<uint64_t>(i + 1));
    }
  }  // each destructor stops the reading thread, blocked on a full queue or not
}

TEST_P(ReadAheadCursorTest, a_preparation_error_comes_after_the_items_before_it_and_ends_the_reading) {
  testing::TempDir dir;
  auto j = journal_of_ticks(dir.path());
  ReadAhead<uint64_t> ahead(
      j->reader().cursor(1),
      [](StoredRecord&& r) -> Result<uint64_t> {
        if (r.seq() == 300) return make_error("seq 300 does not prepare");
        return r.seq() * 10;
      },
      nullptr, GetParam().batch_records, GetParam().max_batches);
  for (uint64_t seq = 1; seq < 300; ++seq) {
    auto next = ahead.next();
    ASSERT_TRUE(next.ok() && *next != nullptr) << seq;
    EXPECT_EQ(**next, seq * 10);
  }
  auto failed = ahead.next();
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.message(), "seq 300 does not prepare");
  auto after = ahead.next();
  ASSERT_FALSE(after.ok());  // the error stays: nothing after it is read
}

TEST(ReadAheadCursor, a_batch_read_while_the_consumer_waits_gets_the_cheaper_preparation_and_nothing_is_lost) {
  testing::TempDir dir;
  auto j = journal_of_ticks(dir.path());
  ReadAhead<uint64_t> ahead(
      j->reader().cursor(1), [](StoredRecord&& r) -> Result<uint64_t> { return r.seq() * 10; },
      [](StoredRecord&& r) -> Result<uint64_t> { return r.seq() * 10 + 1; }, 10, 8);
  // Nothing is ready when the first batch is read; by the time the consumer starts, the reader has
  // filled the queue, so the later batches were read ahead.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<uint64_t> items;
  for (;;) {
    auto next = ahead.next();
    ASSERT_TRUE(next.ok()) << next.message();
    if (!*next) break;
    items.push_back(**next);
  }
  ASSERT_EQ(items.size(), kRecords);
  for (uint64_t i = 0; i < kRecords; ++i) EXPECT_EQ(items[i] / 10, i + 1);
  EXPECT_EQ(items.front() % 10, 1u);  // the first batch: the consumer had nothing
  EXPECT_EQ(items[20] % 10, 0u);      // the third: two batches were waiting
}

INSTANTIATE_TEST_SUITE_P(Shapes, ReadAheadCursorTest,
                         ::testing::Values(Shape{1, 1}, Shape{3, 2}, Shape{256, 8}, Shape{5000, 1}));

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
