#include "cmd/at_source.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cmd/archive_history.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/progress.hpp"

namespace koordq::cmd {
namespace {

std::optional<OpenedHistory> open_journal(std::string_view command, const std::string& dir) {
  OpenedHistory out;
  out.name = "the journal in " + dir;
  out.journal = open_journal_for_reading(command, dir);
  if (!out.journal) return std::nullopt;
  out.reader = out.journal.get();
  if (auto uuid = out.reader->uuid(); !uuid.ok()) {
    fail_command(command, dir + " is not a readable koordq journal: " + uuid.message() + "; pass --journal-dir",
                 kExitJournalUnreadable);
    return std::nullopt;
  }
  return out;
}

std::optional<OpenedHistory> load_export(std::string_view command, const std::string& path) {
  OpenedHistory out;
  out.name = path == "-" ? std::string("the export on stdin") : "the export " + path;
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      fail_command(command, "export file " + path + " does not exist; pass --export FILE (- reads stdin)",
                   kExitJournalUnreadable);
      return std::nullopt;
    }
    file.open(path, std::ios::binary);
    if (!file) {
      fail_command(command, "cannot read export file " + path, kExitJournalUnreadable);
      return std::nullopt;
    }
    in = &file;
  }
  std::optional<journal::ChainBreak> broken;
  TerminalProgress progress("reading the export", 0, kPlainProgressEvery);
  auto loaded = replay::ExportJournal::load(*in, broken, [&](uint64_t seq, uint64_t n) { progress.update(n, seq); });
  if (!loaded.ok()) {
    if (broken) {
      const std::string where = broken->seq > 0 ? " is broken at seq " + std::to_string(broken->seq)
                                                : std::string(" is not a journal export");
      fail_command(command,
                   out.name + where + " (" + broken->reason +
                       "); check it with 'koordq journal verify --export', or export the journal again",
                   kExitJournalUnreadable);
    } else {
      fail_command(command, "cannot read " + out.name + ": " + loaded.message(), kExitJournalUnreadable);
    }
    return std::nullopt;
  }
  out.exported = std::move(loaded).value();
  out.reader = &out.exported->reader();
  if (const uint64_t first = out.reader->first_seq(); first > 1) {
    fail_command(command,
                 out.name + " starts at seq " + std::to_string(first) +
                     "; rebuilding a state needs every record from seq 1: export the journal without --from",
                 kExitJournalUnreadable);
    return std::nullopt;
  }
  return out;
}

}  // namespace

std::optional<OpenedHistory> open_history(std::string_view command, const JournalSource& source,
                                          const HistoryRange& range, int* exit_code) {
  if (exit_code != nullptr) *exit_code = kExitJournalUnreadable;
  if (source.kind == JournalSource::Kind::journal_dir) return open_journal(command, source.path);
  if (source.kind == JournalSource::Kind::archive) {
    int code = kExitJournalUnreadable;
    auto opened = open_archive_history(command, source, range, code);
    if (exit_code != nullptr) *exit_code = code;
    return opened;
  }
  return load_export(command, source.path);
}

}  // namespace koordq::cmd
