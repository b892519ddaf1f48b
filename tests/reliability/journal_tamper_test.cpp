// Tampering by someone with write access to the journal directory (issue: tamper evidence,
// design.md §5, behaviour.md §24.4): each attack is caught by `koordq journal verify` with exit 1
// and one line that names what was changed and where; the journal's own attacks also by recovery.
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rocksdb/write_batch.h>
#include <sys/wait.h>

#include "journal/head_file.hpp"
#include "journal/journal.hpp"
#include "journal/keys.hpp"
#include "journal/retention_cut.hpp"
#include "journal/signed_statements.hpp"
#include "journal/signing_key.hpp"
#include "tests/reliability/journal_damage.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::reliability {
namespace KOORDQ_TEST_LOCAL {

namespace fs = std::filesystem;

struct Exit {
  int code = -1;
  std::vector<std::string> out;
  std::vector<std::string> err;
};

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

void write_lines(const fs::path& file, const std::vector<std::string>& lines) {
  std::ofstream out(file, std::ios::trunc);
  for (const auto& line : lines) out << line << '\n';
}

Exit koordq(const fs::path& scratch, const std::vector<std::string>& args) {
  std::string command = "timeout 120 '" KOORDQ_BINARY "'";
  for (const auto& arg : args) command += " '" + arg + "'";
  command += " >'" + (scratch / "stdout").string() + "' 2>'" + (scratch / "stderr").string() + "'";
  const int status = std::system(command.c_str());
  Exit exit;
  if (status != -1 && WIFEXITED(status)) exit.code = WEXITSTATUS(status);
  exit.out = lines_of(scratch / "stdout");
  exit.err = lines_of(scratch / "stderr");
  return exit;
}

// Exit 1 and one line on stderr that contains every one of `names`.
void expect_detected(const Exit& exit, const std::vector<std::string>& names) {
  EXPECT_EQ(exit.code, 1);
  ASSERT_EQ(exit.err.size(), 1u) << (exit.err.empty() ? "no stderr" : exit.err[0]);
  for (const auto& name : names) EXPECT_NE(exit.err[0].find(name), std::string::npos) << exit.err[0];
}

void delete_log_range(const fs::path& dir, uint64_t from, uint64_t to_exclusive) {
  with_store(dir, [&](journal::RocksStore& s) {
    rocksdb::WriteBatch b;
    b.DeleteRange(s.log(), journal::seq_key(from), journal::seq_key(to_exclusive));
    ASSERT_TRUE(s.write(b, true).ok());
  });
}

Result<std::unique_ptr<journal::Journal>> open_failing(const fs::path& dir) {
  journal::JournalOptions options;
  options.dir = dir;
  options.on_corruption = journal::CorruptionPolicy::kFail;
  return journal::Journal::open(options);
}

struct KeyPair {
  fs::path private_pem, public_pem;
  std::shared_ptr<const journal::SigningKey> key;
};

KeyPair key_pair(const fs::path& scratch, const std::string& name) {
  KeyPair k{scratch / (name + ".pem"), scratch / (name + ".pub.pem"), nullptr};
  const Exit made =
      koordq(scratch, {"journal", "keygen", "--private-key", k.private_pem.string(), "--public-key", k.public_pem});
  EXPECT_EQ(made.code, 0) << (made.err.empty() ? "" : made.err[0]);
  EXPECT_EQ(fs::status(k.private_pem).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  auto loaded = journal::SigningKey::load(k.private_pem);
  EXPECT_TRUE(loaded.ok()) << loaded.message();
  if (loaded.ok()) k.key = std::make_shared<const journal::SigningKey>(std::move(loaded).value());
  return k;
}

TEST(JournalTamper, deleting_head_and_cutting_the_tail_is_caught) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  append_records(dir, 12);
  fs::remove(dir / "HEAD");
  delete_log_range(dir, 10, 13);
  expect_detected(koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string()}),
                  {"broken at seq 10:", "HEAD file is missing", "ends at seq 9"});
  auto refused = open_failing(dir);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("corrupt at seq 10: the HEAD file is missing"), std::string::npos)
      << refused.message();
}

TEST(JournalTamper, a_new_journal_has_head_before_its_first_record) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  append_records(dir, 0);
  auto head = journal::read_head_file(dir / "HEAD");
  ASSERT_TRUE(head.ok() && head->has_value()) << "no HEAD at creation";
  EXPECT_EQ((*head)->seq, 0u);
}

TEST(JournalTamper, cutting_the_tail_and_rewriting_head_is_caught_with_the_public_key) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  const KeyPair owner = key_pair(scratch.path(), "owner");
  const KeyPair attacker = key_pair(scratch.path(), "attacker");
  const auto hashes = append_records(dir, 12, owner.key);
  const Exit intact =
      koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string(), "--public-key", owner.public_pem});
  EXPECT_EQ(intact.code, 0) << (intact.err.empty() ? "" : intact.err[0]);
  ASSERT_EQ(intact.out.size(), 1u);
  EXPECT_NE(intact.out[0].find("signed by key " + owner.key->key_id() + " up to seq 12"), std::string::npos)
      << intact.out[0];

  delete_log_range(dir, 10, 13);
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", journal::ChainHead{9, hashes[8]}).ok());
  expect_detected(
      koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string(), "--public-key", owner.public_pem}),
      {"broken at seq 9:", "HEAD (seq 9) is not signed"});

  auto uuid = journal::JournalReader::open_secondary(dir);
  ASSERT_TRUE(uuid.ok());
  const std::string journal_uuid = *(*uuid)->uuid();
  uuid->reset();
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", journal::ChainHead{9, hashes[8]},
                                       attacker.key->sign(journal::head_statement(journal_uuid, 9, hashes[8])))
                  .ok());
  expect_detected(
      koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string(), "--public-key", owner.public_pem}),
      {"broken at seq 9:", "not signed by key " + owner.key->key_id(), attacker.key->key_id()});

  // serve started with the owner's key refuses the re-signed HEAD too.
  journal::JournalOptions options;
  options.dir = dir;
  options.on_corruption = journal::CorruptionPolicy::kFail;
  options.signing_key = owner.key;
  auto refused = journal::Journal::open(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("HEAD was rewritten"), std::string::npos) << refused.message();
}

TEST(JournalTamper, deleting_the_oldest_records_is_caught) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  append_records(dir, 12);
  delete_log_range(dir, 1, 5);
  expect_detected(koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string()}),
                  {"broken at seq 1:", "seq 1..4 are missing and no retention cut was recorded"});
  auto refused = open_failing(dir);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("no retention cut was recorded"), std::string::npos) << refused.message();
}

TEST(JournalTamper, deleting_records_behind_a_retention_cut_is_caught) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  const auto hashes = append_records(dir, 12);
  // What retention does: drop seq 1..4 and record the cut at seq 5 with its prevHash.
  with_store(dir, [&](journal::RocksStore& s) {
    rocksdb::WriteBatch b;
    b.DeleteRange(s.log(), journal::seq_key(1), journal::seq_key(5));
    b.Put(s.meta(), journal::kMetaRetentionCut, journal::render_retention_cut({5, hashes[3], std::nullopt}));
    ASSERT_TRUE(s.write(b, true).ok());
  });
  const Exit cut = koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string()});
  EXPECT_EQ(cut.code, 0) << (cut.err.empty() ? "" : cut.err[0]);

  delete_log_range(dir, 5, 7);
  expect_detected(koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string()}),
                  {"broken at seq 5:", "retention cut says the log starts at seq 5 but it starts at seq 7"});
}

TEST(JournalTamper, an_edited_snapshot_is_caught_by_verify_and_refused_by_readers) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  append_records(dir, 12);
  {
    auto j = open_failing(dir);
    ASSERT_TRUE(j.ok()) << j.message();
    ASSERT_TRUE((*j)->put_snapshot(6, "the state after seq 6").ok());
  }
  const Exit intact = koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string()});
  EXPECT_EQ(intact.code, 0) << (intact.err.empty() ? "" : intact.err[0]);

  with_store(dir, [](journal::RocksStore& s) {
    rocksdb::WriteBatch b;
    b.Put(s.snapshot(), journal::seq_key(6), "a state that never was");
    ASSERT_TRUE(s.write(b, true).ok());
  });
  expect_detected(koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string()}),
                  {"broken at seq 6:", "snapshot at seq 6 is not the snapshot its anchor names", "edited"});
  auto reader = journal::JournalReader::open_secondary(dir);
  ASSERT_TRUE(reader.ok());
  auto refused = (*reader)->latest_snapshot_at_or_before(10);
  ASSERT_FALSE(refused.ok()) << "a restart would resume from the edited snapshot";
  EXPECT_NE(refused.message().find("edited"), std::string::npos) << refused.message();
}

class ExportTamper : public ::testing::Test {
 protected:
  void SetUp() override {
    owner_ = key_pair(scratch_.path(), "owner");
    append_records(scratch_ / "journal", 8, owner_.key);
    const Exit exported =
        koordq(scratch_.path(), {"journal", "export", "--journal-dir", (scratch_ / "journal").string(),
                                 "--journal-signing-key-file", owner_.private_pem, export_.string()});
    ASSERT_EQ(exported.code, 0) << (exported.err.empty() ? "" : exported.err[0]);
    lines_ = lines_of(export_);
    ASSERT_EQ(lines_.size(), 9u) << "8 records and the trailer";
  }

  Exit verify(const std::vector<std::string>& lines, bool with_key = false) {
    write_lines(scratch_ / "edited.ndjson", lines);
    std::vector<std::string> args{"journal", "verify", "--export", (scratch_ / "edited.ndjson").string()};
    if (with_key) args.insert(args.end(), {"--public-key", owner_.public_pem.string()});
    return koordq(scratch_.path(), args);
  }

  testing::TempDir scratch_;
  KeyPair owner_;
  fs::path export_ = scratch_ / "export.ndjson";
  std::vector<std::string> lines_;
};

TEST_F(ExportTamper, an_intact_signed_export_verifies_with_the_public_key) {
  const Exit ok = verify(lines_, true);
  EXPECT_EQ(ok.code, 0) << (ok.err.empty() ? "" : ok.err[0]);
  ASSERT_EQ(ok.out.size(), 1u);
  EXPECT_NE(ok.out[0].find("signed by key " + owner_.key->key_id()), std::string::npos) << ok.out[0];
}

TEST_F(ExportTamper, an_export_trimmed_at_its_start_is_caught) {
  std::vector<std::string> trimmed(lines_.begin() + 2, lines_.end());
  expect_detected(verify(trimmed), {"broken at seq 1:", "line 7", "starts at seq 3", "cut at its start"});
}

TEST_F(ExportTamper, an_export_trimmed_at_its_end_is_caught) {
  std::vector<std::string> without_trailer(lines_.begin(), lines_.end() - 1);
  expect_detected(verify(without_trailer), {"broken at seq 9:", "without its trailer"});
  std::vector<std::string> without_records(lines_.begin(), lines_.end() - 3);
  without_records.push_back(lines_.back());
  expect_detected(verify(without_records), {"broken at seq 7:", "line 7", "cut at its end"});
}

TEST_F(ExportTamper, an_extended_export_is_caught) {
  std::vector<std::string> extended = lines_;
  extended.push_back(lines_[7]);
  expect_detected(verify(extended), {"broken at seq 9:", "line 10", "after the trailer", "extended"});
}

TEST_F(ExportTamper, a_re_chained_export_of_the_same_journal_uuid_is_caught_with_the_public_key) {
  // Another history under the journal's UUID, chained and exported with a trailer of its own.
  auto reader = journal::JournalReader::open_secondary(scratch_ / "journal");
  ASSERT_TRUE(reader.ok());
  const std::string uuid = *(*reader)->uuid();
  reader->reset();
  {
    journal::JournalOptions options;
    options.dir = scratch_ / "forged";
    options.new_uuid = uuid;
    ASSERT_TRUE(journal::Journal::open(options).ok());
  }
  append_records(scratch_ / "forged", 5);
  const Exit forged = koordq(scratch_.path(), {"journal", "export", "--journal-dir", (scratch_ / "forged").string(),
                                               (scratch_ / "forged.ndjson").string()});
  ASSERT_EQ(forged.code, 0);
  const auto forged_lines = lines_of(scratch_ / "forged.ndjson");
  EXPECT_EQ(verify(forged_lines).code, 0) << "without a key a well-formed forgery cannot be told";
  expect_detected(verify(forged_lines, true), {"broken at seq 5:", "trailer is not signed", "forged"});

  const KeyPair attacker = key_pair(scratch_.path(), "attacker");
  const Exit resigned = koordq(
      scratch_.path(), {"journal", "export", "--journal-dir", (scratch_ / "forged").string(),
                        "--journal-signing-key-file", attacker.private_pem, (scratch_ / "resigned.ndjson").string()});
  ASSERT_EQ(resigned.code, 0);
  expect_detected(verify(lines_of(scratch_ / "resigned.ndjson"), true),
                  {"broken at seq 5:", "not signed by key " + owner_.key->key_id(), attacker.key->key_id()});
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::reliability
