#include "journal/journal.hpp"

#include <cstdlib>
#include <future>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <rocksdb/write_batch.h>

#include "journal/chain_check.hpp"
#include "journal/keys.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

using testing::relist_body;
using testing::round_body;
using testing::tick_body;

std::unique_ptr<Journal> open_journal(const std::filesystem::path& dir,
                                      CorruptionPolicy policy = CorruptionPolicy::kQuarantine) {
  JournalOptions o;
  o.dir = dir;
  o.on_corruption = policy;
  o.new_uuid = "00000000-0000-4000-8000-000000000001";
  auto j = Journal::open(o);
  if (!j.ok()) throw std::runtime_error(j.message());
  return std::move(j).value();
}

Result<AppendedRecord> append_and_wait(GroupCommitWriter& w, std::unique_ptr<RecordBody> body) {
  std::promise<Result<AppendedRecord>> done;
  w.append(std::move(body), [&](const Result<AppendedRecord>& r) { done.set_value(r); });
  return done.get_future().get();
}

TEST(Journal, a_new_journal_starts_at_seq_one_chained_to_its_uuid) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  EXPECT_TRUE(j->open_report().created);
  auto r = append_and_wait(j->writer(), tick_body());
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->seq, 1u);
  auto stored = j->reader().get(1);
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_EQ((*stored)->prev_hash(), genesis_hash(j->uuid()));
  EXPECT_TRUE((*stored)->hash_matches());
  EXPECT_EQ((*stored)->kind(), RecordKind::kTick);
}

TEST(Journal, concurrent_producers_get_dense_seqs_and_every_ack_is_durable) {
  testing::TempDir dir;
  constexpr int kThreads = 8, kPerThread = 200;
  std::mutex mu;
  std::set<uint64_t> acked;
  {
    auto j = open_journal(dir.path());
    std::vector<std::thread> producers;
    for (int t = 0; t < kThreads; ++t) {
      producers.emplace_back([&] {
        for (int i = 0; i < kPerThread; ++i) {
          auto r = append_and_wait(j->writer(), tick_body());
          ASSERT_TRUE(r.ok()) << r.message();
          std::lock_guard lock(mu);
          acked.insert(r->seq);
        }
      });
    }
    for (auto& p : producers) p.join();
    EXPECT_LT(j->writer().stats().groups, static_cast<uint64_t>(kThreads * kPerThread));
  }
  ASSERT_EQ(acked.size(), static_cast<size_t>(kThreads * kPerThread));
  EXPECT_EQ(*acked.begin(), 1u);
  EXPECT_EQ(*acked.rbegin(), static_cast<uint64_t>(kThreads * kPerThread));
  auto j = open_journal(dir.path());
  EXPECT_EQ(j->reader().last_seq(), static_cast<uint64_t>(kThreads * kPerThread));
  const auto check = check_chain(j->reader(), ChainHead{0, genesis_hash(j->uuid())}, INT64_MIN);
  EXPECT_FALSE(check.first_break.has_value()) << check.first_break->reason;
  EXPECT_EQ(check.records, static_cast<uint64_t>(kThreads * kPerThread));
}

TEST(Journal, reopening_continues_the_chain_and_time_never_decreases) {
  testing::TempDir dir;
  int64_t last_time;
  {
    auto j = open_journal(dir.path());
    for (int i = 0; i < 10; ++i) ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
    last_time = j->writer().durable_time();
  }
  auto j = open_journal(dir.path());
  EXPECT_FALSE(j->open_report().created);
  auto body = tick_body();
  body->set_explicit_time(last_time - 1'000'000'000);  // an earlier time is raised
  auto r = append_and_wait(j->writer(), std::move(body));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->seq, 11u);
  EXPECT_GE(r->time, last_time);
  const auto check = check_chain(j->reader(), ChainHead{0, genesis_hash(j->uuid())}, INT64_MIN);
  EXPECT_FALSE(check.first_break.has_value());
}

TEST(Journal, time_index_finds_first_at_or_after_and_last_at_or_before) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  for (int64_t t : {100, 200, 200, 300}) {
    auto body = tick_body();
    body->set_explicit_time(t);
    ASSERT_TRUE(append_and_wait(j->writer(), std::move(body)).ok());
  }
  auto& r = j->reader();
  EXPECT_EQ(r.first_seq_at_or_after(150), 2u);
  EXPECT_EQ(r.first_seq_at_or_after(200), 2u);
  EXPECT_EQ(r.last_seq_at_or_before(200), 3u);
  EXPECT_EQ(r.last_seq_at_or_before(299), 3u);
  EXPECT_FALSE(r.last_seq_at_or_before(99).has_value());
  EXPECT_FALSE(r.first_seq_at_or_after(301).has_value());
}

TEST(Journal, snapshots_are_found_at_or_before_a_seq) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  ASSERT_TRUE(j->put_snapshot(10, "ten").ok());
  ASSERT_TRUE(j->put_snapshot(20, "twenty").ok());
  auto s = j->reader().latest_snapshot_at_or_before(19);
  ASSERT_TRUE(s.ok() && s->has_value());
  EXPECT_EQ((*s)->first, 10u);
  EXPECT_EQ((*s)->second, "ten");
  auto none = j->reader().latest_snapshot_at_or_before(9);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());
  EXPECT_EQ(j->reader().snapshots().size(), 2u);
}

// A snapshot put straight into the `snapshot` family, as a koordq without the snapshot index wrote it.
void put_unindexed_snapshot(Journal& j, uint64_t seq, const std::string& bytes) {
  ASSERT_TRUE(j.store().db().Put(rocksdb::WriteOptions(), j.store().snapshot(), seq_key(seq), bytes).ok());
}

bool indexed(Journal& j, uint64_t seq) {
  auto v = j.reader().meta(snapshot_index_key(seq));
  return v.ok() && v->has_value();
}

TEST(Journal, snapshots_older_than_the_index_are_found_and_indexed_at_the_next_start) {
  testing::TempDir dir;
  {
    auto j = open_journal(dir.path());
    put_unindexed_snapshot(*j, 10, "ten");
    ASSERT_TRUE(j->put_snapshot(20, "twenty").ok());
    EXPECT_FALSE(indexed(*j, 10));
    EXPECT_TRUE(indexed(*j, 20));
    // Older than everything indexed: found in the snapshots themselves.
    auto s = j->reader().latest_snapshot_at_or_before(15);
    ASSERT_TRUE(s.ok() && s->has_value());
    EXPECT_EQ((*s)->first, 10u);
    EXPECT_EQ((*s)->second, "ten");
    auto seq = j->reader().latest_snapshot_seq_at_or_before(15);
    ASSERT_TRUE(seq.ok() && seq->has_value());
    EXPECT_EQ(**seq, 10u);
    s = j->reader().latest_snapshot_at_or_before(25);
    ASSERT_TRUE(s.ok() && s->has_value());
    EXPECT_EQ((*s)->first, 20u);
    EXPECT_EQ((*s)->second, "twenty");
    // A journal from before the index: its writer indexes every snapshot when it starts again.
    ASSERT_TRUE(j->store().db().Delete(rocksdb::WriteOptions(), j->store().meta(), kMetaSnapshotsIndexed).ok());
  }
  auto j = open_journal(dir.path());
  EXPECT_TRUE(indexed(*j, 10));
  EXPECT_TRUE(indexed(*j, 20));
}

TEST(Journal, an_indexed_snapshot_that_is_gone_falls_back_to_the_older_one) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  ASSERT_TRUE(j->put_snapshot(10, "ten").ok());
  ASSERT_TRUE(j->put_snapshot(20, "twenty").ok());
  // Deleted by a koordq that did not know the index.
  ASSERT_TRUE(j->store().db().Delete(rocksdb::WriteOptions(), j->store().snapshot(), seq_key(20)).ok());
  auto s = j->reader().latest_snapshot_at_or_before(25);
  ASSERT_TRUE(s.ok() && s->has_value());
  EXPECT_EQ((*s)->first, 10u);
  EXPECT_EQ((*s)->second, "ten");
}

// Writes 5 records, then lets `tamper` change the database behind the journal's back.
void write_then_tamper(const std::filesystem::path& dir, const std::function<void(RocksStore&)>& tamper) {
  {
    auto j = open_journal(dir);
    for (int i = 0; i < 5; ++i) ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
  }
  auto store = RocksStore::open(dir / "db", StoreMode::kPrimary);
  ASSERT_TRUE(store.ok());
  // Force a full check on the next open.
  rocksdb::WriteBatch b;
  b.Delete((*store)->meta(), kMetaVerified);
  ASSERT_TRUE((*store)->write(b, true).ok());
  tamper(**store);
}

TEST(JournalRecovery, an_altered_record_is_corruption_naming_its_seq) {
  testing::TempDir dir;
  write_then_tamper(dir / "j", [](RocksStore& s) {
    auto v = s.get(s.log(), seq_key(3));
    std::string value = **v;
    value[value.size() / 2] ^= 0x01;
    rocksdb::WriteBatch b;
    b.Put(s.log(), seq_key(3), value);
    ASSERT_TRUE(s.write(b, true).ok());
  });
  JournalOptions o;
  o.dir = dir / "j";
  o.on_corruption = CorruptionPolicy::kFail;
  auto j = Journal::open(o);
  ASSERT_FALSE(j.ok());
  EXPECT_NE(j.message().find("corrupt at seq 3"), std::string::npos) << j.message();
}

TEST(JournalRecovery, quarantine_moves_the_corrupt_journal_aside_and_starts_a_new_one) {
  testing::TempDir dir;
  write_then_tamper(dir / "j", [](RocksStore& s) {
    rocksdb::WriteBatch b;
    b.Delete(s.log(), seq_key(2));
    ASSERT_TRUE(s.write(b, true).ok());
  });
  JournalOptions o;
  o.dir = dir / "j";
  o.quarantine_time = 1776672000LL * 1'000'000'000;
  auto j = Journal::open(o);
  ASSERT_TRUE(j.ok()) << j.message();
  const auto& q = (*j)->open_report().quarantined;
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->first_bad_seq, 2u);
  EXPECT_EQ(q->last_intact_seq, 1u);
  EXPECT_EQ(q->moved_to.filename().string(), "j.quarantined-20260420T080000Z");
  EXPECT_TRUE(std::filesystem::exists(q->moved_to / "db"));
  EXPECT_TRUE((*j)->open_report().created);
  EXPECT_EQ((*j)->reader().last_seq(), 0u);
}

TEST(JournalRecovery, a_log_shorter_than_head_lost_acknowledged_records) {
  testing::TempDir dir;
  write_then_tamper(dir / "j", [](RocksStore& s) {
    rocksdb::WriteBatch b;
    b.Delete(s.log(), seq_key(5));
    ASSERT_TRUE(s.write(b, true).ok());
  });
  JournalOptions o;
  o.dir = dir / "j";
  o.on_corruption = CorruptionPolicy::kFail;
  auto j = Journal::open(o);
  ASSERT_FALSE(j.ok());
  EXPECT_NE(j.message().find("corrupt at seq 5"), std::string::npos) << j.message();
  EXPECT_NE(j.message().find("acknowledged records were lost"), std::string::npos) << j.message();
}

TEST(JournalRecovery, a_torn_tail_past_head_is_dropped) {
  testing::TempDir dir;
  write_then_tamper(dir / "j", [&](RocksStore& s) {
    // HEAD says 3: records 4 and 5 were never acknowledged as far as HEAD knows; 5 is torn.
    ASSERT_TRUE(
        write_head_file(dir / "j" / "HEAD", ChainHead{3, StoredRecord::parse(**s.get(s.log(), seq_key(3)))->hash()})
            .ok());
    rocksdb::WriteBatch b;
    b.Put(s.log(), seq_key(5), std::string(48, 'x'));
    ASSERT_TRUE(s.write(b, true).ok());
  });
  auto j = open_journal(dir / "j", CorruptionPolicy::kFail);
  EXPECT_EQ(j->open_report().truncated_records, 1u);
  EXPECT_EQ(j->reader().last_seq(), 4u);
  auto r = append_and_wait(j->writer(), tick_body());
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->seq, 5u);
}

TEST(JournalRecovery, a_round_not_directly_after_its_basis_is_corruption) {
  testing::TempDir dir;
  {
    auto j = open_journal(dir.path());
    ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
    ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
    // The writer does not check the basis of a round: opening the journal does.
    ASSERT_TRUE(append_and_wait(j->writer(), round_body(1)).ok());
  }
  JournalOptions o;
  o.dir = dir.path();
  o.on_corruption = CorruptionPolicy::kFail;
  {
    auto store = RocksStore::open(dir.path() / "db", StoreMode::kPrimary);
    rocksdb::WriteBatch b;
    b.Delete((*store)->meta(), kMetaVerified);
    ASSERT_TRUE((*store)->write(b, true).ok());
  }
  auto j = Journal::open(o);
  ASSERT_FALSE(j.ok());
  EXPECT_NE(j.message().find("seq 3"), std::string::npos) << j.message();
}

TEST(Journal, a_secondary_reader_sees_what_the_writer_made_durable) {
  testing::TempDir dir;
  auto j = open_journal(dir.path());
  ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
  auto reader = JournalReader::open_secondary(dir.path());
  ASSERT_TRUE(reader.ok()) << reader.message();
  EXPECT_EQ((*reader)->last_seq(), 1u);
  ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
  ASSERT_TRUE((*reader)->refresh().ok());
  EXPECT_EQ((*reader)->last_seq(), 2u);
  EXPECT_EQ(*(*reader)->uuid(), j->uuid());
}

TEST(Journal, a_secondary_reader_without_a_scratch_directory_names_TMPDIR_and_the_fix) {
  testing::TempDir dir;
  auto j = open_journal(dir / "live");
  ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
  const char* previous = std::getenv("TMPDIR");
  const std::string saved = previous != nullptr ? previous : "";
  const auto missing = dir / "no-such-tmp";
  ::setenv("TMPDIR", missing.c_str(), 1);
  auto reader = JournalReader::open_secondary(dir / "live");
  if (previous != nullptr) {
    ::setenv("TMPDIR", saved.c_str(), 1);
  } else {
    ::unsetenv("TMPDIR");
  }
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.message(), "cannot create a scratch directory for reading the journal in " + missing.string() +
                                  ": No such file or directory; set TMPDIR to a writable directory (in a Pod whose "
                                  "root filesystem is read-only, mount an emptyDir at /tmp, as ops/kubernetes does)");
}

TEST(Journal, checkpoint_copies_a_journal_that_opens_and_verifies) {
  testing::TempDir dir;
  auto j = open_journal(dir / "live");
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
  auto n = j->checkpoint(dir / "copy");
  ASSERT_TRUE(n.ok()) << n.message();
  EXPECT_EQ(*n, 20u);
  EXPECT_FALSE(j->checkpoint(dir / "copy").ok());
  auto copy = open_journal(dir / "copy", CorruptionPolicy::kFail);
  EXPECT_EQ(copy->reader().last_seq(), 20u);
  EXPECT_EQ(copy->uuid(), j->uuid());
}

// Snapshots of real size, larger than any block: a checkpoint and a reader in another process
// find and read them as they were written.
TEST(Journal, large_snapshots_survive_a_checkpoint_and_read_from_another_process) {
  testing::TempDir dir;
  auto j = open_journal(dir / "live");
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(append_and_wait(j->writer(), tick_body()).ok());
  std::string big(256 << 10, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>((i * 131) ^ (i >> 9));
  ASSERT_TRUE(j->put_snapshot(10, big).ok());
  ASSERT_TRUE(j->put_snapshot(20, big.substr(0, 100 << 10)).ok());
  ASSERT_TRUE(j->checkpoint(dir / "copy").ok());

  auto copy = open_journal(dir / "copy", CorruptionPolicy::kFail);
  auto found = copy->reader().latest_snapshot_at_or_before(19);
  ASSERT_TRUE(found.ok() && found->has_value()) << found.message();
  EXPECT_EQ((*found)->first, 10u);
  EXPECT_TRUE((*found)->second == big);
  auto other = JournalReader::open_secondary(dir / "live");
  ASSERT_TRUE(other.ok()) << other.message();
  auto newest = (*other)->latest_snapshot_at_or_before(100);
  ASSERT_TRUE(newest.ok() && newest->has_value()) << newest.message();
  EXPECT_EQ((*newest)->first, 20u);
  EXPECT_TRUE((*newest)->second == big.substr(0, 100 << 10));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
