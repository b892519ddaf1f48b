// Retention (behaviour.md §21, design.md §5): old records are dropped from the oldest end in
// whole ranges that end at a snapshot, so every retained revision stays reconstructable (the
// snapshot at the cut holds the state before the first retained record) and the chain stays
// verifiable from the cut (the first retained record carries its prevHash). Snapshots beyond the
// newest `keep_snapshots` are dropped too, except the one at the cut.
#pragma once

#include <cstdint>
#include <optional>

#include "base/result.hpp"
#include "journal/journal.hpp"

namespace koordq::journal {

struct RetentionPolicy {
  std::optional<int64_t> max_age_nanos;  // measured back from the newest record's time
  std::optional<uint64_t> max_bytes;     // the journal's disk use
  size_t keep_snapshots = 48;
  // Records after this seq are kept whatever the limits say (serve --archive-url: what the archive
  // does not hold yet, behaviour.md §26).
  std::optional<uint64_t> keep_after_seq;
};

struct RetentionResult {
  uint64_t first_seq = 0;  // oldest retained seq afterwards (0: empty journal)
  uint64_t dropped_records = 0;
  uint64_t dropped_snapshots = 0;
};

Result<RetentionResult> apply_retention(Journal& journal, const RetentionPolicy& policy);

}  // namespace koordq::journal
