// What one journal record means on the console's timeline (docs/behaviour.md §25.2): the moments
// an SRE looks for in a post-mortem, counted per record. Reads the record only; no state.
#pragma once

#include <cstdint>

#include "journal/stored_record.hpp"

namespace koordq::console {

struct MomentCounts {
  uint32_t arrivals = 0;        // a QueueUnit added (a watch ADDED, not one a relist synthesised)
  uint32_t admissions = 0;      // decisions admit and reserve
  uint32_t failures = 0;        // decisions fail, admissionCheckFailed, maxExecExceeded, invalidQuantities
  uint32_t preemptions = 0;     // decisions preempt
  uint32_t leader_changes = 0;  // role records
  uint32_t relists = 0;         // the start of a relist epoch
  uint32_t decided_rounds = 0;  // rounds holding at least one decision: where "step" stops

  MomentCounts& operator+=(const MomentCounts& other);
  bool operator==(const MomentCounts&) const = default;
};

MomentCounts record_moments(const journal::StoredRecord& record);

}  // namespace koordq::console
