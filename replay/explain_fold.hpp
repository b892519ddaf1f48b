// Which records `koordq explain` folds, and the fold itself (behaviour.md §24.2). With the
// per-unit index (journal/unit_index.hpp) covering the range, only the stretch from the unit's
// first record to its last is folded, starting from the state restored just before the first
// (snapshot + tail) and restoring again across long stretches that do not touch it. Without it
// (a journal older than the index) every record from the oldest retained one to the end is.
// Both give the same story for a journal folded under one configuration.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "journal/journal_reader.hpp"
#include "replay/explain.hpp"
#include "replay/replay.hpp"

namespace koordq::replay {

struct StoryPlan {
  uint64_t first = 0;  // the records [first, end] of the journal
  uint64_t end = 0;
  bool indexed = false;
  std::vector<uint64_t> touches;  // indexed: the seqs the index names for the unit, ascending

  // An upper bound of the records the fold reads (for progress).
  uint64_t records() const;
};

enum class StoryIndex { use_when_present, ignore };

Result<StoryPlan> plan_story(journal::JournalReader& reader, const std::string& ns, const std::string& name,
                             uint64_t first, uint64_t end, StoryIndex index = StoryIndex::use_when_present);

// Past this many records without the unit, restoring the state from a snapshot in between is
// cheaper than folding them (a restore costs about what folding ~20k records does, BENCHMARKS.md).
inline constexpr uint64_t kRestoreRatherThanFold = 32768;

// Folds the plan's records into `folder`; `progress` gets (seq, records folded so far). An indexed
// plan restores the state from a snapshot instead of folding more than `restore_after` records
// that do not touch the unit, when one lies in between.
Status fold_story(journal::JournalReader& reader, const StoryPlan& plan, StoryFolder& folder,
                  const Progress& progress = {}, uint64_t restore_after = kRestoreRatherThanFold);

}  // namespace koordq::replay
