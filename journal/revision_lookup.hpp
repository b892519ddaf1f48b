// Resolving a point in history to a revision (a seq) with the messages of behaviour.md §16.7,
// shared by the offline commands (WHEN, --from/--to) and the live APIs' asOf/revision.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::journal {

struct RetainedRange {
  uint64_t first = 0;  // 0 when the journal is empty
  uint64_t last = 0;
  int64_t first_time = 0;
};

Result<RetainedRange> retained_range(JournalReader& reader);

// `revision <n> is newer than the latest revision <m>` / `… older than the oldest retained …`.
Result<uint64_t> check_revision(const RetainedRange& range, uint64_t revision);
// The last seq whose time ≤ t (the latest when t is after the newest record);
// `time <text> is older than the oldest retained revision <m> (<time of m>)` before the oldest.
Result<uint64_t> revision_at_time(JournalReader& reader, const RetainedRange& range, int64_t t,
                                  const std::string& text);
// The first seq whose time ≥ t, std::nullopt when every record is older.
std::optional<uint64_t> first_revision_from_time(JournalReader& reader, int64_t t);

}  // namespace koordq::journal
