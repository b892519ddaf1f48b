// The koordq command line: which command, with which validated options. Parsing is a pure function
// of the arguments and the environment, so tests drive exactly what main runs.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "cmd/command_environment.hpp"
#include "cmd/commands.hpp"

namespace koordq::cmd {

using CommandOptions =
    std::variant<ServeOptions, ReplayOptions, AtOptions, ExplainOptions, ConsoleOptions, JournalImportOptions,
                 JournalExportOptions, JournalVerifyOptions, JournalStatOptions, JournalCheckpointOptions,
                 JournalKeygenOptions, ArchiveLsOptions, ArchiveVerifyOptions, ArchiveExportOptions, VersionOptions>;

// The command line ends here, before any command runs: `--help` (exit code 0, the help on
// stdout) or a usage error (exit code 2, one line on stderr).
struct CommandLineExit {
  int exit_code = 0;
  std::string out;
  std::string err;
};

// args excludes the program name. Flags take `--name=value` or `--name value` (the next argument,
// whatever it looks like, as Go's flag packages do); a boolean flag alone means true; the last of
// repeated flags wins.
std::variant<CommandOptions, CommandLineExit> parse_command_line(const std::vector<std::string>& args,
                                                                 const CommandEnvironment& env);

// Runs the command; returns the process exit code.
int run_command(const CommandOptions& options);

}  // namespace koordq::cmd
