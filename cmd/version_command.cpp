#include "cmd/version_command.hpp"

#include <cstdio>

#include "cmd/build_info.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {

const CommandSpec& version_command_spec() {
  static const CommandSpec spec{
      .path = "version",
      .summary = "print the version and the git revision it was built from",
      .description =
          "Prints `koordq <version> (<git revision>)`; the revision is `unknown` for a build made "
          "outside a git checkout.",
      .usage = {"koordq version"},
      .arguments = {},
      .flag_groups = {},
      .subcommands = {},
      .sections = {},
      .exit_codes = {},
  };
  return spec;
}

Result<VersionOptions> read_version_options(const ParsedFlags& flags, const CommandEnvironment&) {
  if (!flags.positionals().empty()) {
    return usage_error("version", "unexpected argument \"" + flags.positionals().front() + "\"");
  }
  return VersionOptions{};
}

std::string version_line() {
  return std::string("koordq ") + kVersion + " (" + kGitRevision + ")";
}

int run_version(const VersionOptions&) {
  std::printf("%s\n", version_line().c_str());
  return kExitSuccess;
}

}  // namespace koordq::cmd
