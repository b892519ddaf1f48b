#include <cstdio>

#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/offline_placeholder.hpp"

namespace koordq::cmd {
namespace {

JournalSource journal_dir(const std::string& path) {
  return {JournalSource::Kind::journal_dir, path};
}

}  // namespace

int run_journal_import(const JournalImportOptions&) {
  // Import creates a missing journal directory, so there is nothing to check first.
  std::fprintf(stderr, "koordq journal import: this command is not implemented yet\n");
  return kExitCheckFailed;
}

int run_journal_export(const JournalExportOptions& options) {
  return report_not_implemented("journal export", journal_dir(options.journal_dir));
}

int run_journal_verify(const JournalVerifyOptions& options) {
  return report_not_implemented("journal verify", options.source);
}

int run_journal_stat(const JournalStatOptions& options) {
  return report_not_implemented("journal stat", journal_dir(options.journal_dir));
}

int run_journal_checkpoint(const JournalCheckpointOptions& options) {
  return report_not_implemented("journal checkpoint", journal_dir(options.journal_dir));
}

}  // namespace koordq::cmd
