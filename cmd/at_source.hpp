// The history `koordq at` reads (behaviour.md §24): a journal opened as a secondary instance, or an
// NDJSON export loaded and checked record by record, both behind one JournalReader. Failures are
// printed as one line and carry exit code 3.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cmd/journal_source.hpp"
#include "journal/journal_reader.hpp"
#include "replay/export_journal.hpp"

namespace koordq::cmd {

struct OpenedHistory {
  std::unique_ptr<journal::JournalReader> journal;
  std::unique_ptr<replay::ExportJournal> exported;
  journal::JournalReader* reader = nullptr;
  std::string name;  // for messages: "the journal in DIR", "the export FILE"
};

// std::nullopt after printing `koordq <command>: <why>` on stderr.
std::optional<OpenedHistory> open_history(std::string_view command, const JournalSource& source);

}  // namespace koordq::cmd
