// `koordq console --journal-dir DIR` (behaviour.md §25.1): the web console over a journal.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.hpp"
#include "cmd/command_environment.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/parsed_flags.hpp"

namespace koordq::cmd {

struct ConsoleOptions {
  std::string journal_dir;
  std::string host = "127.0.0.1";
  uint16_t port = 19877;
  int64_t cache_mb = 256;
};

const CommandSpec& console_command_spec();

Result<ConsoleOptions> read_console_options(const ParsedFlags& flags, const CommandEnvironment& env);

}  // namespace koordq::cmd
