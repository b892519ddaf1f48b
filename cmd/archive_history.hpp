// History read from the journal archive (behaviour.md §26.6): the segments a range needs, listed
// by their keys and read through the local segment cache, each checked and chained to the one
// before it, loaded into a private temporary journal, so that every offline reader reads the
// archive as it reads a journal directory; with a local journal that continues the archive
// (--journal-dir), the archive supplies the records before its first retained seq and the two
// must join: the local first record's prevHash is the archive's hash of the seq before.
#pragma once

#include <optional>
#include <string_view>

#include "cmd/journal_source.hpp"
#include "cmd/opened_history.hpp"

namespace koordq::cmd {

// std::nullopt after printing `koordq <command>: <why>` on stderr; exit_code is then set (2 for an
// unusable URL or S3 configuration, 3 for an archive that cannot be read or does not verify).
std::optional<OpenedHistory> open_archive_history(std::string_view command, const JournalSource& source,
                                                  const HistoryRange& range, int& exit_code);

}  // namespace koordq::cmd
