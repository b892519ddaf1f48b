// `koordq replay` (behaviour.md §24.3): rebuild the state, verify the recorded decisions, or
// re-decide under changed settings.
#pragma once

#include <optional>
#include <vector>

#include "base/result.hpp"
#include "cmd/command_environment.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/journal_source.hpp"
#include "cmd/parsed_flags.hpp"
#include "cmd/what_if.hpp"
#include "cmd/when.hpp"

namespace koordq::cmd {

enum class ReplayOutput { text, json };

struct ReplayOptions {
  JournalSource source;
  std::optional<When> to;  // nullopt: to the newest record
  bool verify = false;     // excludes what_if
  std::vector<WhatIfChange> what_if;
  ReplayOutput output = ReplayOutput::text;
};

const CommandSpec& replay_command_spec();

Result<ReplayOptions> read_replay_options(const ParsedFlags& flags, const CommandEnvironment& env);

}  // namespace koordq::cmd
