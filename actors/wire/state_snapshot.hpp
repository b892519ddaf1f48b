// Snapshots of the whole decision state (design.md §5): the Scheduler after record `seq` as one
// snapshot.capnp Snapshot whose parts hold state.capnp payloads:
//   "router"        now, the decision configuration, the units whose quota label names no queue
//   "queue/<name>"  one queue's state and the units whose quota label names it
//   "quota/<name>"  the ElasticQuota objects of that name and the accounting under that name
// Every field of every state struct is stored as it is (derived ones too), so a restored state is
// exactly the replayed one. The bytes are canonical: the same state gives the same bytes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "actors/core/decision_config.hpp"
#include "actors/core/scheduler.hpp"
#include "base/result.hpp"

namespace koordq::actors {

struct RestoredState {
  Scheduler scheduler;
  uint64_t seq = 0;  // the state after this record
  int64_t time = 0;  // that record's time
  std::string journal_uuid;
  uint32_t decision_logic_version = 0;
  uint16_t schema_major = 0;
  uint16_t schema_minor = 0;
};

std::string encode_state_snapshot(const Scheduler& scheduler, uint64_t seq, int64_t time,
                                  const std::string& journal_uuid);

// An Error, never an exception, for bytes that are not a snapshot this binary can restore:
// malformed or truncated bytes, a newer major schema version, a part that does not decode, a
// snapshot written by another decision-logic version, or one folded under another `config` (the
// state would differ from a replay under `config`). Callers then replay from the start.
Result<RestoredState> decode_state_snapshot(std::string_view bytes, const DecisionConfig& config);

// The decision configuration a snapshot was folded under (its router part), so that a replay can
// restore it under the configuration its writer had.
Result<DecisionConfig> snapshot_decision_config(std::string_view bytes);

}  // namespace koordq::actors
