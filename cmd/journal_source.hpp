// Where an offline command reads history from (behaviour.md §24): a journal directory
// (--journal-dir) or an NDJSON export (--export FILE, `-` = stdin), never both.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cmd/command_spec.hpp"
#include "cmd/default_paths.hpp"
#include "cmd/flag_reader.hpp"

namespace koordq::cmd {

struct JournalSource {
  enum class Kind { journal_dir, export_file };
  Kind kind = Kind::journal_dir;
  std::string path{kDefaultJournalDir};  // the directory, or the export file (`-` = stdin)

  friend bool operator==(const JournalSource&, const JournalSource&) = default;
};

inline constexpr FlagSpec kJournalDirFlag{"--journal-dir", "", "DIR", "/var/lib/koordq/journal", "the journal"};
inline constexpr FlagSpec kExportFlag{
    "--export", "", "FILE", "",
    "read an NDJSON export (journal export --format ndjson; - = stdin) instead of a journal; excludes "
    "--journal-dir"};

// Reads --journal-dir and, when the command has it, --export; both given is a usage error.
void read_journal_source(FlagReader& reader, JournalSource& out);

// The exit code lines of an offline command's help; `check_failed` is the line of exit code 1, or
// empty when the command never exits with 1.
std::vector<std::string_view> offline_exit_codes(std::string_view check_failed);

}  // namespace koordq::cmd
