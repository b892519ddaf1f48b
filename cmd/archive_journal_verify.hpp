// `koordq journal verify --archive-url` (behaviour.md §26.6): every archived segment checked as
// `archive verify` checks it (with --public-key, each trailer signed by that key) while its records
// are loaded, then the whole chain from the journal's start checked as for a journal directory;
// with --journal-dir, also the local journal itself (its HEAD and, with the key, its signature).
#pragma once

#include <optional>
#include <string_view>

#include "cmd/journal_source.hpp"
#include "journal/signing_key.hpp"
#include "journal/verify.hpp"

namespace koordq::cmd {

// std::nullopt after printing why (exit_code set); a broken chain is a report, not a failure.
std::optional<journal::VerifyReport> verify_archived_history(std::string_view command, const JournalSource& source,
                                                             const journal::VerifyingKey* key,
                                                             const journal::Progress& progress, int& exit_code);

}  // namespace koordq::cmd
