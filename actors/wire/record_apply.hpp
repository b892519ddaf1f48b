// The router's fold (design.md §3): one stored journal record applied to the decision state.
// Every record first advances "now" to its time; then a watch event applies its object (a
// BOOKMARK nothing more), a round its decisions, an outcome its answer, `role: acquired` resets
// the leader state, `config` marks a process start (what the previous process published on its
// Queues is written again; the relist cutoff of behaviour.md §15.4), `relist` marks a QueueUnit
// relist in progress; tick and `role: lost` only advance time.
//
// The record's content is decoded before anything is applied, so a record that does not decode
// leaves the state untouched; its Error names the record's seq.
#pragma once

#include <functional>

#include "actors/core/scheduler.hpp"
#include "base/result.hpp"
#include "journal/stored_record.hpp"

namespace koordq::actors {

Status apply_record(Scheduler& scheduler, const journal::StoredRecord& record);

// apply_record in two halves, so that decoding a record, which needs no state, can run on the
// thread reading the journal ahead of the fold (journal::ReadAhead, which leaves it to the fold,
// defer_record, when it falls behind). Every kind is decoded ahead: on a journal whose rounds
// carry many decisions this made a full replay 1.4x and a time-travel restore 1.1-1.2x faster, and
// it changed nothing measurable on the simulator's journal (BENCHMARKS.md, Replay, "Time travel on
// the 10M-record journal; every record decoded ahead").
struct PreparedRecord {
  journal::StoredRecord record;
  std::function<void(Scheduler&)> effect;  // empty: decoded when applied
};

// The Error of a record that does not decode is the one apply_record returns for it.
Result<PreparedRecord> prepare_record(journal::StoredRecord record);
// The record as it is, decoded when applied (the reading thread's share when it is behind).
Result<PreparedRecord> defer_record(journal::StoredRecord record);
// Once per prepared record: the decoded object moves into the state. Same result as apply_record.
Status apply_prepared(Scheduler& scheduler, PreparedRecord& prepared);

}  // namespace koordq::actors
