#include "cmd/journal_source.hpp"

#include "cmd/usage_error.hpp"

namespace koordq::cmd {

void read_journal_source(FlagReader& reader, JournalSource& out) {
  if (!reader.ok()) return;
  const ParsedFlags& flags = reader.flags();
  if (flags.given(kExportFlag.name) && flags.given(kJournalDirFlag.name)) {
    return reader.fail(usage_error(reader.command(),
                                   "--export and --journal-dir exclude each other: --export reads "
                                   "an export file instead of a journal"));
  }
  if (flags.given(kExportFlag.name)) {
    out.kind = JournalSource::Kind::export_file;
    out.path.clear();
    reader.non_empty_text(kExportFlag.name, out.path);
    return;
  }
  reader.non_empty_text(kJournalDirFlag.name, out.path);
}

std::vector<std::string_view> offline_exit_codes(std::string_view check_failed) {
  std::vector<std::string_view> lines = {"0  success"};
  if (!check_failed.empty()) lines.push_back(check_failed);
  lines.push_back("2  usage error: unknown command or flag, invalid value, WHEN out of range");
  lines.push_back("3  the journal or export is unreadable or corrupt");
  return lines;
}

}  // namespace koordq::cmd
