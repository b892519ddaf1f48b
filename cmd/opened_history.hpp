// History opened for an offline reader (behaviour.md §24, §26.6): whatever it came from (a journal
// directory, an export, the archive), one JournalReader, and the range of it the reader needs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "journal/journal_reader.hpp"
#include "journal/signing_key.hpp"
#include "replay/export_journal.hpp"

namespace koordq::cmd {

struct OpenedHistory {
  std::unique_ptr<journal::JournalReader> journal;
  std::unique_ptr<replay::ExportJournal> exported;
  journal::JournalReader* reader = nullptr;
  std::string name;  // for messages: "the journal in DIR", "the export FILE", "the archive URL of journal U"
  // From the archive: the bytes of the objects read and of the local journal (journal stat).
  std::optional<uint64_t> stored_bytes;
};

// The records a command needs: [from_seq, to_seq], and when to_time is given only up to the
// first segment that reaches past it (a time is resolved to a seq once the records are loaded).
struct HistoryRange {
  uint64_t from_seq = 1;
  uint64_t to_seq = UINT64_MAX;
  std::optional<int64_t> to_time;
  // Start at the newest archived snapshot at or before the end instead of seq 1 (`at`).
  bool from_snapshot = false;
  // With a key, every segment's trailer and snapshot's anchor must carry its signature.
  const journal::VerifyingKey* key = nullptr;
  // The exit code of an archive that does not check (a segment altered, missing or foreign, a
  // local journal that does not continue it): 3, unreadable history; `journal verify` says 1.
  int broken_exit_code = 3;
};

}  // namespace koordq::cmd
