#include "cmd/command_spec.hpp"

namespace koordq::cmd {

std::vector<const FlagSpec*> all_flags(const CommandSpec& spec) {
  std::vector<const FlagSpec*> flags;
  for (const FlagGroup& group : spec.flag_groups) {
    for (const FlagSpec& flag : group.flags) flags.push_back(&flag);
  }
  return flags;
}

SubcommandSummary subcommand_summary(const CommandSpec& spec) {
  const size_t space = spec.path.rfind(' ');
  return {space == std::string_view::npos ? spec.path : spec.path.substr(space + 1), spec.summary};
}

}  // namespace koordq::cmd
