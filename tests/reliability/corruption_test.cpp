// Corruption that recovery must report (design.md §5, behaviour.md §21): each kind of damage is
// named by its first bad seq under --journal-on-corruption=fail, moves the journal aside under
// quarantine (which starts a fresh one), and is caught by `koordq journal verify` (verify_journal).
#include <fstream>

#include <gtest/gtest.h>
#include <rocksdb/write_batch.h>

#include "journal/journal.hpp"
#include "journal/keys.hpp"
#include "journal/verify.hpp"
#include "tests/reliability/journal_damage.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::reliability {
namespace KOORDQ_TEST_LOCAL {

namespace fs = std::filesystem;
using journal::ChainHead;
using journal::CorruptionPolicy;

constexpr int64_t kQuarantineTime = 1776672000LL * 1'000'000'000;  // 2026-04-20T08:00:00Z

Result<std::unique_ptr<journal::Journal>> open_journal(const fs::path& dir, CorruptionPolicy policy) {
  journal::JournalOptions options;
  options.dir = dir;
  options.on_corruption = policy;
  options.quarantine_time = kQuarantineTime;
  return journal::Journal::open(options);
}

// What `koordq journal verify <dir>` reports.
std::string verify(const fs::path& dir) {
  auto reader = journal::JournalReader::open_secondary(dir);
  if (!reader.ok()) return reader.message();
  auto report = journal::verify_journal(**reader, dir / "HEAD");
  return report.ok() ? journal::render_verify_report(*report) : report.message();
}

std::string names(uint64_t seq) {
  return "seq " + std::to_string(seq) + ":";
}

// The three ways the damage must be reported, in this order: verify (read only), open with
// fail (leaves the journal alone), open with quarantine.
void expect_corruption_at(const fs::path& dir, uint64_t seq) {
  const std::string verified = verify(dir);
  EXPECT_TRUE(verified.starts_with("broken at " + names(seq))) << verified;

  auto refused = open_journal(dir, CorruptionPolicy::kFail);
  ASSERT_FALSE(refused.ok()) << "the damaged journal opened under --journal-on-corruption=fail";
  EXPECT_NE(refused.message().find("corrupt at " + names(seq)), std::string::npos) << refused.message();
  ASSERT_TRUE(fs::exists(dir / "db"));

  auto fresh = open_journal(dir, CorruptionPolicy::kQuarantine);
  ASSERT_TRUE(fresh.ok()) << fresh.message();
  const auto& quarantined = (*fresh)->open_report().quarantined;
  ASSERT_TRUE(quarantined.has_value()) << "the damaged journal was not quarantined";
  EXPECT_EQ(quarantined->first_bad_seq, seq) << quarantined->reason;
  EXPECT_EQ(quarantined->moved_to, fs::path(dir.string() + ".quarantined-20260420T080000Z"));
  EXPECT_TRUE(fs::exists(quarantined->moved_to / "db"));
  EXPECT_TRUE((*fresh)->open_report().created);
  EXPECT_EQ((*fresh)->reader().last_seq(), 0u);
}

void replace_record(const fs::path& dir, uint64_t seq, const std::function<void(std::string&)>& edit) {
  with_store(dir, [&](journal::RocksStore& s) {
    auto value = s.get(s.log(), journal::seq_key(seq));
    ASSERT_TRUE(value.ok() && value->has_value());
    std::string bytes = **value;
    edit(bytes);
    rocksdb::WriteBatch b;
    b.Put(s.log(), journal::seq_key(seq), bytes);
    ASSERT_TRUE(s.write(b, true).ok());
  });
}

TEST(JournalCorruption, a_flipped_byte_in_a_record_after_the_verified_point_is_corruption_at_its_seq) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  const auto hashes = append_records(dir, 10);
  set_verified_point(dir, 5, hashes[4]);
  replace_record(dir, 7, [](std::string& v) { v[v.size() / 2] ^= 0x01; });
  expect_corruption_at(dir, 7);
}

TEST(JournalCorruption, a_flipped_byte_in_a_record_behind_the_verified_point_is_caught_by_verify) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  append_records(dir, 10);
  replace_record(dir, 3, [](std::string& v) { v[v.size() / 2] ^= 0x01; });
  // Open checks only from the verified point (seq 10 after a clean close); verify checks all.
  const std::string verified = verify(dir);
  EXPECT_TRUE(verified.starts_with("broken at " + names(3))) << verified;
}

TEST(JournalCorruption, a_flipped_byte_in_an_sst_data_block_is_corruption_at_the_first_seq_it_hides) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  append_records(dir, 1000);
  flush_all(dir);
  const auto hashes = append_records(dir, 1000);
  flush_all(dir);
  const LogTable table = newest_log_table(dir);
  ASSERT_EQ(table.first_seq, 1001u);
  flip_byte(table.path, table.data_bytes / 2);
  const uint64_t bad = first_unreadable_seq(dir, 2000);
  ASSERT_GT(bad, 1001u) << "the flipped byte must hide records in the middle of the table";
  set_verified_point(dir, 1000, hashes[999]);
  expect_corruption_at(dir, bad);
}

TEST(JournalCorruption, a_truncated_sst_holding_the_log_is_corruption_at_its_first_seq) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  append_records(dir, 2000);
  compact_log(dir);
  const LogTable table = newest_log_table(dir);
  ASSERT_EQ(table.first_seq, 1u);
  fs::resize_file(table.path, table.data_bytes / 2);
  expect_corruption_at(dir, 1);
}

TEST(JournalCorruption, a_deleted_wal_holding_acknowledged_records_is_corruption_after_the_flushed_ones) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  append_records(dir, 100);
  flush_all(dir);
  append_records(dir, 50);  // acknowledged, and only in the WAL
  const auto wals = wal_files(dir);
  ASSERT_FALSE(wals.empty());
  for (const auto& wal : wals) fs::remove(wal);
  expect_corruption_at(dir, 101);
}

TEST(JournalCorruption, a_deleted_wal_holding_the_whole_journal_is_corruption_at_seq_1) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  append_records(dir, 20);  // never flushed: the WAL holds everything, the UUID included
  for (const auto& wal : wal_files(dir)) fs::remove(wal);
  expect_corruption_at(dir, 1);
}

TEST(JournalCorruption, a_head_rolled_forward_past_the_log_is_corruption_after_its_last_record) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  append_records(dir, 10);
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", ChainHead{13, journal::sha256("elsewhere")}).ok());
  expect_corruption_at(dir, 11);
}

TEST(JournalCorruption, a_head_naming_the_last_seq_with_another_hash_is_corruption_at_that_seq) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  const auto hashes = append_records(dir, 10);
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", ChainHead{10, hashes[8]}).ok());
  expect_corruption_at(dir, 10);
}

TEST(JournalCorruption, a_head_rolled_back_to_an_earlier_seq_with_another_hash_is_corruption_at_that_seq) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  const auto hashes = append_records(dir, 10);
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", ChainHead{6, hashes[4]}).ok());
  expect_corruption_at(dir, 6);
}

TEST(JournalCorruption, a_head_rolled_back_with_its_own_hash_only_lags_and_is_not_corruption) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  const auto hashes = append_records(dir, 10);
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", ChainHead{6, hashes[5]}).ok());
  EXPECT_TRUE(verify(dir).starts_with("ok: 10 records")) << verify(dir);
  auto j = open_journal(dir, CorruptionPolicy::kFail);
  ASSERT_TRUE(j.ok()) << j.message();
  EXPECT_EQ((*j)->reader().last_seq(), 10u);
  EXPECT_EQ((*j)->open_report().truncated_records, 0u);
}

TEST(JournalCorruption, a_malformed_head_is_corruption_after_the_last_intact_record) {
  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  append_records(dir, 10);
  std::ofstream(dir / "HEAD", std::ios::trunc) << "10 not-a-hash\n";
  expect_corruption_at(dir, 11);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::reliability
