// Which archived segments a read needs (behaviour.md §26.6): the segment keys name their seq
// ranges, so a reader lists the journal's prefix and GETs only the segments that hold the asked
// range, refusing a range the archive does not hold whole. And where a local journal that
// continues the archive joins it: the local journal's first retained record must carry, as its
// prevHash, the archive's hash of the seq before it.
#pragma once

#include <cstdint>
#include <vector>

#include "archive/archive_reader.hpp"
#include "base/result.hpp"
#include "journal/hash_chain.hpp"

namespace koordq::archive {

// The segments (in seq order) that together hold every seq of [from, to]; an error naming the
// first seq of the range that no segment holds. `segments` are a journal's, in seq order.
Result<std::vector<ArchivedSegment>> segments_for_range(const std::vector<ArchivedSegment>& segments, uint64_t from,
                                                        uint64_t to);

// The local journal continues the archive when the archive holds seq local_first - 1 with the hash
// the local journal's first record names as its prevHash. `archive_last` is the last seq the
// archive holds; `archive_hash` its hash of seq local_first - 1 (read by the caller when held).
Status check_join(uint64_t archive_last, const journal::Hash& archive_hash, uint64_t local_first,
                  const journal::Hash& local_prev_hash);

}  // namespace koordq::archive
