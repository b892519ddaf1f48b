// The action of each command, one function per command in its own file, called once the command
// line has been read and validated. Each returns the process exit code (cmd/exit_codes.hpp).
#pragma once

#include "cmd/archive_flags.hpp"
#include "cmd/at_flags.hpp"
#include "cmd/console_flags.hpp"
#include "cmd/explain_flags.hpp"
#include "cmd/journal_flags.hpp"
#include "cmd/replay_flags.hpp"
#include "cmd/serve_flags.hpp"
#include "cmd/version_command.hpp"

namespace koordq::cmd {

int run_serve(const ServeOptions& options);                           // serve_command.cpp
int run_replay(const ReplayOptions& options);                         // replay_command.cpp
int run_at(const AtOptions& options);                                 // at_command.cpp
int run_console(const ConsoleOptions& options);                       // console_command.cpp
int run_explain(const ExplainOptions& options);                       // explain_command.cpp
int run_journal_import(const JournalImportOptions& options);          // journal_commands.cpp
int run_journal_export(const JournalExportOptions& options);          // journal_commands.cpp
int run_journal_verify(const JournalVerifyOptions& options);          // journal_commands.cpp
int run_journal_stat(const JournalStatOptions& options);              // journal_commands.cpp
int run_journal_checkpoint(const JournalCheckpointOptions& options);  // journal_commands.cpp
int run_journal_keygen(const JournalKeygenOptions& options);          // journal_keygen.cpp
int run_archive_ls(const ArchiveLsOptions& options);                  // archive_commands.cpp
int run_archive_verify(const ArchiveVerifyOptions& options);          // archive_commands.cpp
int run_archive_export(const ArchiveExportOptions& options);          // archive_commands.cpp
int run_version(const VersionOptions& options);                       // version_command.cpp

}  // namespace koordq::cmd
