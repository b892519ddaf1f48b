#include "cmd/journal_access.hpp"

#include <cstdio>
#include <filesystem>

#include "cmd/default_paths.hpp"
#include "cmd/exit_codes.hpp"

namespace koordq::cmd {

int fail_command(std::string_view command, const std::string& message, int exit_code) {
  std::fprintf(stderr, "koordq %.*s: %s\n", static_cast<int>(command.size()), command.data(), message.c_str());
  return exit_code;
}

std::unique_ptr<journal::JournalReader> open_journal_for_reading(std::string_view command, const std::string& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    fail_command(command,
                 "journal directory " + dir + " does not exist; pass --journal-dir (serve writes " +
                     std::string(kDefaultJournalDir) + ", serve --simulate " + std::string(kSimulateJournalDir) + ")",
                 kExitJournalUnreadable);
    return nullptr;
  }
  auto reader = journal::JournalReader::open_secondary(dir);
  if (!reader.ok()) {
    fail_command(command, reader.message(), kExitJournalUnreadable);
    return nullptr;
  }
  return std::move(reader).value();
}

}  // namespace koordq::cmd
