// The history `koordq at` and `koordq replay` read (behaviour.md §24, §26.6): a journal opened as a
// secondary instance, an NDJSON export loaded and checked record by record, or the journal archive,
// behind one JournalReader. Failures are printed as one line.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cmd/journal_source.hpp"
#include "cmd/opened_history.hpp"

namespace koordq::cmd {

// std::nullopt after printing `koordq <command>: <why>` on stderr (exit code 3, or what
// open_archive_history sets, in `exit_code` when given). From the archive, only what `range` asks
// for is read (the whole of a journal or an export is).
std::optional<OpenedHistory> open_history(std::string_view command, const JournalSource& source,
                                          const HistoryRange& range = {}, int* exit_code = nullptr);

}  // namespace koordq::cmd
