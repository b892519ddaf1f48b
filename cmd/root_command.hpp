// `koordq` itself: the list of commands.
#pragma once

#include "cmd/command_spec.hpp"

namespace koordq::cmd {

const CommandSpec& root_command_spec();

}  // namespace koordq::cmd
