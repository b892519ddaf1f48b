// The offline commands over a corrupt journal (behaviour.md §24): with a byte flipped inside a data
// block of the log's SST file, `koordq replay`, `koordq at` and `koordq explain`, asked for
// something that needs a record the damaged block holds, exit with code 3 ("the journal or export
// is unreadable or corrupt") and one line on stderr that names the damage; never by a signal, never
// with a sanitizer's report.
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "journal/journal_reader.hpp"
#include "journal/keys.hpp"
#include "journal/unit_index.hpp"
#include "tests/reliability/journal_damage.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::reliability {
namespace KOORDQ_TEST_LOCAL {

namespace fs = std::filesystem;

struct Exit {
  int code = -1;  // the exit code, or -1 when the process did not exit normally
  std::vector<std::string> stderr_lines;
};

std::vector<std::string> lines_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Runs koordq with `args` (at most 120 s), its stdout and stderr in files under `scratch`.
Exit run_koordq(const fs::path& scratch, const std::vector<std::string>& args) {
  std::string command = "timeout 120 '" KOORDQ_BINARY "'";
  for (const auto& arg : args) command += " '" + arg + "'";
  command += " >'" + (scratch / "stdout").string() + "' 2>'" + (scratch / "stderr").string() + "'";
  const int status = std::system(command.c_str());
  Exit exit;
  // The shell reports a child ended by a signal as 128 + the signal; the checks want 3.
  if (status != -1 && WIFEXITED(status)) exit.code = WEXITSTATUS(status);
  exit.stderr_lines = lines_of(scratch / "stderr");
  return exit;
}

std::string describe(const Exit& exit) {
  std::ostringstream out;
  out << "exit " << exit.code << ", stderr:";
  for (const auto& line : exit.stderr_lines) out << "\n  " << line;
  return out.str();
}

// `names`: what the message must also name (the first damaged seq, for a fold that starts before it).
void expect_corrupt_journal_exit(const fs::path& scratch, const std::vector<std::string>& args,
                                 const std::string& names = "") {
  std::string what = "koordq";
  for (const auto& arg : args) what += " " + arg;
  SCOPED_TRACE(what);
  const Exit exit = run_koordq(scratch, args);
  EXPECT_EQ(exit.code, 3) << describe(exit);
  ASSERT_EQ(exit.stderr_lines.size(), 1u) << describe(exit);
  const std::string& line = exit.stderr_lines[0];
  EXPECT_TRUE(line.starts_with("koordq " + args[0] + ": ")) << line;
  EXPECT_NE(line.find("Corruption"), std::string::npos) << "the message names the damage: " << line;
  EXPECT_NE(line.find(names), std::string::npos) << "the message names " << names << ": " << line;
  EXPECT_EQ(line.find("Sanitizer"), std::string::npos) << line;
}

TEST(OfflineCommandsCorruption, replay_at_and_explain_over_a_flipped_byte_in_an_sst_exit_3_with_one_line) {
  testing::TempDir scratch;
  const fs::path dir = scratch / "journal";
  const Exit simulated = run_koordq(scratch.path(), {"serve", "--simulate", "--simulate-clock", "virtual", "--seed",
                                                     "3", "--simulate-duration", "20s", "--journal-dir", dir.string()});
  ASSERT_EQ(simulated.code, 0) << describe(simulated);

  // The units every record names, read before the damage.
  std::map<uint64_t, std::vector<std::string>> units_named;
  uint64_t last = 0;
  {
    auto reader = journal::JournalReader::open_secondary(dir);
    ASSERT_TRUE(reader.ok()) << reader.message();
    auto cursor = (*reader)->cursor(1);
    for (auto next = cursor.next(); next.ok() && next->has_value(); next = cursor.next()) {
      last = (*next)->seq();
      units_named[last] = journal::units_named_by((*next)->reader());
    }
  }
  ASSERT_GT(last, 1000u);

  // The records live in the WAL until a flush writes them into one table.
  flush_all(dir);
  const LogTable table = newest_log_table(dir);
  ASSERT_EQ(table.first_seq, 1u);
  flip_byte(table.path, table.data_bytes / 2);
  const uint64_t bad = first_unreadable_seq(dir, last);
  ASSERT_GT(bad, 1u) << "the flipped byte must hide records in the middle of the table";
  std::string unit;
  with_store(dir, [&](journal::RocksStore& s) {
    auto snapshot = journal::JournalReader(s).latest_snapshot_seq_at_or_before(bad);
    ASSERT_TRUE(snapshot.ok()) << snapshot.message();
    EXPECT_LT(snapshot->value_or(0), bad) << "a fold to the damaged record must read it";
    for (uint64_t seq = bad; seq <= last && unit.empty() && !s.get(s.log(), journal::seq_key(seq)).ok(); ++seq) {
      if (!units_named[seq].empty()) unit = units_named[seq].front();
    }
  });
  ASSERT_FALSE(unit.empty()) << "no record in the damaged block names a unit";

  // Replay and at fold up to the damaged record and stop there; explain folds the unit's stretch,
  // which reaches into the damage.
  const std::string rev = "rev:" + std::to_string(bad);
  const std::string at_bad = "at seq " + std::to_string(bad) + ": ";
  expect_corrupt_journal_exit(scratch.path(), {"replay", "--journal-dir", dir.string(), "--to", rev}, at_bad);
  expect_corrupt_journal_exit(scratch.path(), {"replay", "--journal-dir", dir.string(), "--verify"}, at_bad);
  expect_corrupt_journal_exit(scratch.path(), {"at", "--journal-dir", dir.string(), rev, "queues", "-o", "json"},
                              at_bad);
  expect_corrupt_journal_exit(scratch.path(), {"explain", "--journal-dir", dir.string(), unit});
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::reliability
