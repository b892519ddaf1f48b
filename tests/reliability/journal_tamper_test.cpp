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
#include "journal/witness.hpp"
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

TEST(JournalTamper, an_unsigned_head_is_refused_at_start_once_the_journal_is_signed) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  const KeyPair owner = key_pair(scratch.path(), "owner");
  const auto hashes = append_records(dir, 12, owner.key);
  // The tail cut and HEAD written without a signature, as by someone without the key.
  delete_log_range(dir, 10, 13);
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", journal::ChainHead{9, hashes[8]}).ok());
  journal::JournalOptions options;
  options.dir = dir;
  options.on_corruption = journal::CorruptionPolicy::kFail;
  options.signing_key = owner.key;
  auto refused = journal::Journal::open(options);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.message().find("corrupt at seq 9: HEAD (seq 9) is not signed, but the journal is signed by key " +
                                   owner.key->key_id() + ": HEAD was rewritten"),
            std::string::npos)
      << refused.message();
}

TEST(JournalTamper, a_signed_journal_is_never_written_without_its_key) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  const KeyPair owner = key_pair(scratch.path(), "owner");
  append_records(dir, 3, owner.key);
  auto refused = open_failing(dir);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(
      refused.message().find("is signed (by key " + owner.key->key_id() + "): pass its --journal-signing-key-file"),
      std::string::npos)
      << refused.message();
  EXPECT_NE(lines_of(dir / "HEAD").size(), 1u) << "HEAD keeps its signature";
  // A copy needs no key, and keeps HEAD's signature.
  const Exit copied =
      koordq(scratch.path(), {"journal", "checkpoint", "--journal-dir", dir.string(), (scratch / "copy").string()});
  EXPECT_EQ(copied.code, 0) << (copied.err.empty() ? "" : copied.err[0]);
  const Exit verified = koordq(scratch.path(), {"journal", "verify", "--journal-dir", (scratch / "copy").string(),
                                                "--public-key", owner.public_pem});
  EXPECT_EQ(verified.code, 0) << (verified.err.empty() ? "" : verified.err[0]);
}

TEST(JournalTamper, an_unsigned_journal_is_signed_from_its_first_start_with_a_key) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  const KeyPair owner = key_pair(scratch.path(), "owner");
  append_records(dir, 3);
  append_records(dir, 2, owner.key);
  const Exit verified =
      koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string(), "--public-key", owner.public_pem});
  EXPECT_EQ(verified.code, 0) << (verified.err.empty() ? "" : verified.err[0]);
}

TEST(JournalTamper, records_after_the_signed_head_are_counted_and_warned_about) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  const KeyPair owner = key_pair(scratch.path(), "owner");
  const auto hashes = append_records(dir, 12, owner.key);
  auto reader = journal::JournalReader::open_secondary(dir);
  ASSERT_TRUE(reader.ok());
  const std::string journal_uuid = *(*reader)->uuid();
  reader->reset();
  // HEAD lags the log, as after a crash before the HEAD thread wrote it (or records appended behind its back).
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", journal::ChainHead{9, hashes[8]},
                                       owner.key->sign(journal::head_statement(journal_uuid, 9, hashes[8])))
                  .ok());
  const Exit exit =
      koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string(), "--public-key", owner.public_pem});
  EXPECT_EQ(exit.code, 0) << "reported, not refused: a serve writing now signs HEAD just after each group";
  ASSERT_EQ(exit.out.size(), 1u);
  EXPECT_NE(exit.out[0].find("signed by key " + owner.key->key_id() +
                             " up to seq 9 (3 records after it not covered by a signature)"),
            std::string::npos)
      << exit.out[0];
  ASSERT_EQ(exit.err.size(), 1u);
  EXPECT_NE(exit.err[0].find("warning: 3 records (seq 10..12) are not covered by a signature"), std::string::npos)
      << exit.err[0];
}

TEST(JournalTamper, a_key_file_that_cannot_be_used_is_named_with_its_fix) {
  testing::TempDir scratch;
  const std::string missing = (scratch / "missing.pem").string();
  const Exit serve = koordq(scratch.path(), {"serve", "--journal-signing-key-file", missing});
  EXPECT_EQ(serve.code, 2);
  ASSERT_EQ(serve.err.size(), 1u);
  EXPECT_NE(serve.err[0].find("koordq serve: invalid value \"" + missing +
                              "\" for --journal-signing-key-file: "
                              "cannot read key file " +
                              missing +
                              ": No such file or directory; name the "
                              "--private-key file that `koordq journal keygen` wrote"),
            std::string::npos)
      << serve.err[0];
  std::ofstream(scratch / "not-a-key.pem") << "not a key\n";
  fs::permissions(scratch / "not-a-key.pem", fs::perms::owner_read | fs::perms::owner_write);
  const Exit garbage =
      koordq(scratch.path(), {"serve", "--journal-signing-key-file", (scratch / "not-a-key.pem").string()});
  EXPECT_EQ(garbage.code, 2);
  ASSERT_EQ(garbage.err.size(), 1u);
  EXPECT_NE(garbage.err[0].find("holds no PEM private key; generate a pair with `koordq journal keygen`"),
            std::string::npos)
      << garbage.err[0];
  const Exit verify =
      koordq(scratch.path(), {"journal", "verify", "--journal-dir", scratch.path().string(), "--public-key", missing});
  EXPECT_EQ(verify.code, 2);
  ASSERT_EQ(verify.err.size(), 1u);
  EXPECT_NE(verify.err[0].find("--public-key: cannot read key file " + missing), std::string::npos) << verify.err[0];
}

// The witness ConfigMap as `kubectl get configmap -o json` prints it, holding `witness`.
void write_witness_file(const fs::path& file, const journal::JournalWitness& witness) {
  std::string value;
  for (char c : journal::render_journal_witness(witness)) {
    if (c == '"' || c == '\\') value.push_back('\\');
    value.push_back(c);
  }
  std::ofstream(file)
      << "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"koordq-journal-witness\","
         "\"namespace\":\"koord-queue\",\"resourceVersion\":\"7\"},\"data\":{\""
      << witness.journal_uuid << "\":\"" << value << "\"}}\n";
}

TEST(JournalTamper, a_tail_cut_and_re_signed_with_the_key_itself_disagrees_with_the_witness) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  const KeyPair owner = key_pair(scratch.path(), "owner");
  const auto hashes = append_records(dir, 12, owner.key);
  auto reader = journal::JournalReader::open_secondary(dir);
  ASSERT_TRUE(reader.ok());
  const std::string journal_uuid = *(*reader)->uuid();
  reader->reset();
  journal::JournalWitness witness{journal_uuid, "", {}};
  for (uint64_t seq : {4, 8, 12}) {
    journal::add_witness_entry(
        witness,
        journal::make_witness_entry(witness, seq, hashes[seq - 1],
                                    "2026-12-06T14:0" + std::to_string(seq % 10) + ":00Z", owner.key.get()),
        60);
  }
  const fs::path witness_file = scratch / "witness.json";
  write_witness_file(witness_file, witness);
  const Exit agrees = koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string(), "--public-key",
                                              owner.public_pem, "--witness-file", witness_file.string()});
  EXPECT_EQ(agrees.code, 0) << (agrees.err.empty() ? "" : agrees.err[0]);
  ASSERT_EQ(agrees.out.size(), 2u);
  EXPECT_EQ(agrees.out[1], "witness: journal " + journal_uuid +
                               " agrees with ConfigMap koord-queue/koordq-journal-witness (witness file " +
                               witness_file.string() +
                               ") up to seq 12 (witnessed 2026-12-06T14:02:00Z; 3 entries "
                               "checked); every entry signed by key " +
                               owner.key->key_id());

  delete_log_range(dir, 10, 13);
  ASSERT_TRUE(journal::write_head_file(dir / "HEAD", journal::ChainHead{9, hashes[8]},
                                       owner.key->sign(journal::head_statement(journal_uuid, 9, hashes[8])))
                  .ok());
  const Exit plain =
      koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string(), "--public-key", owner.public_pem});
  EXPECT_EQ(plain.code, 0) << "the key alone cannot tell: " << (plain.err.empty() ? "" : plain.err[0]);
  expect_detected(koordq(scratch.path(), {"journal", "verify", "--journal-dir", dir.string(), "--public-key",
                                          owner.public_pem, "--witness-file", witness_file.string()}),
                  {"witness: the journal ends at seq 9, but ConfigMap koord-queue/koordq-journal-witness (witness "
                   "file " +
                       witness_file.string() + ") witnessed seq 12 with head " + journal::to_hex(hashes[11]),
                   "the records after seq 9 were cut"});
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
