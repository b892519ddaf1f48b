#include "base/log.hpp"
#include "cmd/command_line.hpp"
#include "cmd/serve_startup_log.hpp"

namespace koordq::cmd {
namespace {

struct Dispatch {
  int operator()(const ServeOptions& o) const {
    base::set_log_verbosity(o.verbosity);
    log_serve_configuration(o);
    return run_serve(o);
  }
  int operator()(const ReplayOptions& o) const { return run_replay(o); }
  int operator()(const AtOptions& o) const { return run_at(o); }
  int operator()(const ExplainOptions& o) const { return run_explain(o); }
  int operator()(const ConsoleOptions& o) const { return run_console(o); }
  int operator()(const JournalImportOptions& o) const { return run_journal_import(o); }
  int operator()(const JournalExportOptions& o) const { return run_journal_export(o); }
  int operator()(const JournalVerifyOptions& o) const { return run_journal_verify(o); }
  int operator()(const JournalStatOptions& o) const { return run_journal_stat(o); }
  int operator()(const JournalCheckpointOptions& o) const { return run_journal_checkpoint(o); }
  int operator()(const JournalKeygenOptions& o) const { return run_journal_keygen(o); }
  int operator()(const ArchiveLsOptions& o) const { return run_archive_ls(o); }
  int operator()(const ArchiveVerifyOptions& o) const { return run_archive_verify(o); }
  int operator()(const ArchiveExportOptions& o) const { return run_archive_export(o); }
  int operator()(const VersionOptions& o) const { return run_version(o); }
};

}  // namespace

int run_command(const CommandOptions& options) {
  return std::visit(Dispatch{}, options);
}

}  // namespace koordq::cmd
