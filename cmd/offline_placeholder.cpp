#include "cmd/offline_placeholder.hpp"

#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "cmd/exit_codes.hpp"

namespace koordq::cmd {
namespace {

int fail(std::string_view command, const std::string& message, int exit_code) {
  std::fprintf(stderr, "koordq %.*s: %s\n", static_cast<int>(command.size()), command.data(), message.c_str());
  return exit_code;
}

}  // namespace

int report_not_implemented(std::string_view command, const JournalSource& source) {
  std::error_code error;
  if (source.kind == JournalSource::Kind::journal_dir) {
    if (!std::filesystem::is_directory(source.path, error)) {
      return fail(command,
                  "journal directory " + source.path + " does not exist; pass --journal-dir (serve writes " +
                      std::string(kDefaultJournalDir) + ", serve --simulate " + std::string(kSimulateJournalDir) + ")",
                  kExitJournalUnreadable);
    }
  } else if (source.path != "-" && !std::filesystem::exists(source.path, error)) {
    return fail(command, "export file " + source.path + " does not exist; pass --export FILE (- reads stdin)",
                kExitJournalUnreadable);
  }
  return fail(command, "this command is not implemented yet", kExitCheckFailed);
}

}  // namespace koordq::cmd
