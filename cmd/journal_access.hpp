// Opening a journal for the offline commands, with their messages and exit codes
// (behaviour.md §24): a missing or unreadable journal is exit code 3, named in one line.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "journal/journal_reader.hpp"

namespace koordq::cmd {

// Prints `koordq <command>: <message>` on stderr and returns exit_code.
int fail_command(std::string_view command, const std::string& message, int exit_code);

// A secondary (read-only) instance of the journal in `dir`, or nullptr after printing why.
std::unique_ptr<journal::JournalReader> open_journal_for_reading(std::string_view command, const std::string& dir);

}  // namespace koordq::cmd
