// The decision state at a seq from a journal (design.md §5, §6): the newest snapshot at or before
// it, then the records after the snapshot folded with apply_record, exactly as a full replay
// would. A snapshot that cannot be used (it does not decode, another decision-logic version or
// configuration, another journal) is logged and the next older one is tried; without any the fold
// starts from the empty state at seq 1.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "actors/core/decision_config.hpp"
#include "actors/core/scheduler.hpp"
#include "actors/wire/state_snapshot.hpp"
#include "base/result.hpp"
#include "journal/journal.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::actors {

struct RestoredScheduler {
  Scheduler scheduler;
  uint64_t seq = 0;                      // the state after this record; 0 for an empty journal
  std::optional<uint64_t> snapshot_seq;  // the snapshot the fold started from
  uint64_t applied_records = 0;          // records folded after it
};

// The state after record min(target_seq, last seq). Errors: a record that cannot be read or
// applied, or records dropped by retention that no usable snapshot covers.
Result<RestoredScheduler> restore_state(journal::JournalReader& reader, uint64_t target_seq,
                                        const DecisionConfig& config);

// The newest usable snapshot at or before target_seq, restored under the configuration it was
// folded under (replay, which follows the journal's config records); std::nullopt when none.
std::optional<RestoredState> newest_snapshot(journal::JournalReader& reader, uint64_t target_seq);

// Stores the snapshot of `scheduler`, the state after record `seq` at `time`, in `journal`.
Status write_state_snapshot(journal::Journal& journal, const Scheduler& scheduler, uint64_t seq, int64_t time,
                            const std::string& journal_uuid);

}  // namespace koordq::actors
