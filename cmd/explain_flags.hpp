// `koordq explain NS/NAME` (behaviour.md §24.2): the history of one QueueUnit.
#pragma once

#include <optional>
#include <string>

#include "base/result.hpp"
#include "cmd/command_environment.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/journal_source.hpp"
#include "cmd/object_names.hpp"
#include "cmd/parsed_flags.hpp"
#include "cmd/when.hpp"

namespace koordq::cmd {

enum class ExplainOutput { text, json };

struct ExplainOptions {
  JournalSource source;
  NamespacedName unit;
  std::optional<std::string> uid;  // nullopt: the latest UID that carried the name
  std::optional<When> at;          // nullopt: up to the newest record
  ExplainOutput output = ExplainOutput::text;
};

const CommandSpec& explain_command_spec();

Result<ExplainOptions> read_explain_options(const ParsedFlags& flags, const CommandEnvironment& env);

}  // namespace koordq::cmd
