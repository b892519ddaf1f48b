// Where an offline command reads history from (behaviour.md §24, §26.6): a journal directory
// (--journal-dir), an NDJSON export (--export FILE, `-` = stdin), or the journal archive in S3
// (--archive-url), alone or continued by a local journal (--archive-url with --journal-dir).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cmd/archive_target.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/default_paths.hpp"
#include "cmd/flag_reader.hpp"

namespace koordq::cmd {

// The archive an offline command reads, and its local segment cache.
struct ArchiveRead {
  ArchiveTarget target;
  std::string cache_dir;  // empty: $XDG_CACHE_HOME/koordq/archive or ~/.cache/koordq/archive
  bool cache = true;      // --archive-cache off: no cache
  int64_t cache_bytes = int64_t{2} << 30;
  bool stats = false;  // --archive-stats: say on stderr what was read and from where

  friend bool operator==(const ArchiveRead&, const ArchiveRead&) = default;
};

struct JournalSource {
  enum class Kind { journal_dir, export_file, archive };
  Kind kind = Kind::journal_dir;
  std::string path{kDefaultJournalDir};  // the directory, or the export file (`-` = stdin)
  ArchiveRead archive;                   // Kind::archive
  bool local = false;  // Kind::archive with --journal-dir: the local journal in `path` continues the archive

  friend bool operator==(const JournalSource&, const JournalSource&) = default;
};

inline constexpr FlagSpec kJournalDirFlag{"--journal-dir", "", "DIR", "/var/lib/koordq/journal", "the journal"};
inline constexpr FlagSpec kExportFlag{
    "--export", "", "FILE", "",
    "read an NDJSON export (journal export --format ndjson; - = stdin) instead of a journal; excludes "
    "--journal-dir"};

// --archive-url and the flags that go with it, as a help group of their own.
const FlagGroup& archive_read_flag_group();

// Reads --journal-dir and, when the command has them, --export and the archive flags; --export
// with --journal-dir or --archive-url is a usage error.
void read_journal_source(FlagReader& reader, JournalSource& out);

// The exit code lines of an offline command's help; `check_failed` is the line of exit code 1, or
// empty when the command never exits with 1.
std::vector<std::string_view> offline_exit_codes(std::string_view check_failed);

}  // namespace koordq::cmd
