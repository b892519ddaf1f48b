// `--help` text of a command, rendered from its CommandSpec.
#pragma once

#include <string>

#include "cmd/command_spec.hpp"

namespace koordq::cmd {

// Description, usage, arguments, sub-commands, every flag with its meaning and default, and the
// exit codes; lines wrapped at 100 columns.
std::string render_help(const CommandSpec& spec);

}  // namespace koordq::cmd
