// The decision settings as the `config` record carries them (schema/record.capnp, Config): every
// serve flag by name (without dashes) with its effective value. One mapping from those flags to the
// DecisionConfig, used by serve for its own flags and by replay for the journal's config records,
// so a replay decides with exactly the settings the live run had.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "actors/core/decision_config.hpp"
#include "base/result.hpp"
#include "schema/record.capnp.h"

namespace koordq::actors {

using ConfigFlags = std::vector<std::pair<std::string, std::string>>;  // name without dashes, value

// The DecisionConfig the decision flags give; flags that are absent keep their defaults, other
// flags are ignored. An Error names a decision flag whose value does not parse.
Result<DecisionConfig> decision_config_from_flags(const ConfigFlags& flags);

struct JournalConfig {
  DecisionConfig decision;
  uint32_t decision_logic_version = 0;
  std::string journal_uuid;
};

// A `config` record's settings; an Error for a malformed record or flag value.
Result<JournalConfig> read_journal_config(wire::Config::Reader in);

}  // namespace koordq::actors
