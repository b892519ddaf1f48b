// `koordq at WHEN OBJECT` (behaviour.md §24.1): one read surface as it was at a past revision.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "cmd/command_environment.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/journal_source.hpp"
#include "cmd/parsed_flags.hpp"
#include "cmd/when.hpp"

namespace koordq::cmd {

struct AtObject {
  enum class Kind { queues, queue, quotas, quota, unit, metrics, debug_elasticquota, debug_queue, debug_userquota };
  Kind kind = Kind::queues;
  std::string namespace_name;  // unit
  std::string name;            // queue, quota, unit

  friend bool operator==(const AtObject&, const AtObject&) = default;
};

enum class AtOutput { json, yaml, table, prometheus_text };

struct AtOptions {
  JournalSource source;
  When when;
  AtObject object;
  AtOutput output = AtOutput::json;  // prometheus_text exactly for metrics
  std::vector<std::string> phases;   // --phase: effective phases to keep; empty keeps all
  int64_t limit = 1000;
  int64_t offset = 0;
};

const CommandSpec& at_command_spec();

Result<AtOptions> read_at_options(const ParsedFlags& flags, const CommandEnvironment& env);

}  // namespace koordq::cmd
