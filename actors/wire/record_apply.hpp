// The router's fold (design.md §3): one stored journal record applied to the decision state.
// Every record first advances "now" to its time; then a watch event applies its object (a
// BOOKMARK nothing more), a round its decisions, an outcome its answer, `role: acquired` resets
// the leader state; config, relist, tick and `role: lost` only advance time.
//
// The record's content is decoded before anything is applied, so a record that does not decode
// leaves the state untouched; its Error names the record's seq.
#pragma once

#include "actors/core/scheduler.hpp"
#include "base/result.hpp"
#include "journal/stored_record.hpp"

namespace koordq::actors {

Status apply_record(Scheduler& scheduler, const journal::StoredRecord& record);

}  // namespace koordq::actors
