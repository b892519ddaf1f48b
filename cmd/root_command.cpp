#include "cmd/root_command.hpp"

#include "cmd/archive_flags.hpp"
#include "cmd/at_flags.hpp"
#include "cmd/console_flags.hpp"
#include "cmd/explain_flags.hpp"
#include "cmd/journal_flags.hpp"
#include "cmd/replay_flags.hpp"
#include "cmd/serve_flags.hpp"
#include "cmd/version_command.hpp"

namespace koordq::cmd {

const CommandSpec& root_command_spec() {
  static const CommandSpec spec{
      .path = "",
      .summary = "",
      .description =
          "koordq is a Kubernetes job-queueing controller compatible with Koord-Queue: it admits QueueUnits into "
          "ElasticQuota capacity through one Queue per quota. Everything it observes and every decision it makes "
          "is appended to a journal before it acts, so any past state and decision can be replayed, inspected and "
          "verified offline with the commands below.",
      .usage = {"koordq <command> [flags]"},
      .arguments = {},
      .flag_groups = {},
      .subcommands =
          {
              subcommand_summary(serve_command_spec()),
              subcommand_summary(replay_command_spec()),
              subcommand_summary(at_command_spec()),
              subcommand_summary(explain_command_spec()),
              subcommand_summary(console_command_spec()),
              subcommand_summary(journal_command_spec()),
              subcommand_summary(archive_command_spec()),
              subcommand_summary(version_command_spec()),
          },
      .sections = {},
      .exit_codes = {},
  };
  return spec;
}

}  // namespace koordq::cmd
