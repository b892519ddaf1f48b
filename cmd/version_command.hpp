// `koordq version`: `koordq <version> (<git revision>)`.
#pragma once

#include <string>

#include "base/result.hpp"
#include "cmd/command_environment.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/parsed_flags.hpp"

namespace koordq::cmd {

struct VersionOptions {};

const CommandSpec& version_command_spec();

Result<VersionOptions> read_version_options(const ParsedFlags& flags, const CommandEnvironment& env);

// `koordq 0.1.0 (<40 hex digits>)`, or `(unknown)` when built outside a git checkout.
std::string version_line();

}  // namespace koordq::cmd
