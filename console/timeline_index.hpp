// The journal's history for the console's timeline strip (docs/behaviour.md §25.2), kept in bins of
// kBinRecords consecutive records: each bin's seq and time range and its moment counts. 10M
// records fit in about 2 MB, so the strip of any range is summed from bins without reading the
// journal. Records are added in seq order by one follower; reads may come from any thread.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "console/record_moments.hpp"

namespace koordq::console {

struct TimelineBucket {
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  int64_t first_time = 0;
  int64_t last_time = 0;
  MomentCounts counts;
};

class TimelineIndex {
 public:
  static constexpr uint64_t kBinRecords = 256;

  // The next record in seq order. A record that does not follow the last one restarts the index
  // at it (the journal was cut by retention, or a fresh one replaced it).
  void add(uint64_t seq, int64_t time, const MomentCounts& counts);

  // 0 before the first record.
  uint64_t first_seq() const;
  uint64_t last_seq() const;

  // The records in [from, to] summed into at most `count` buckets of whole bins, in seq order
  // (fewer when the range holds fewer bins); empty when the range holds no indexed record.
  std::vector<TimelineBucket> buckets(uint64_t from, uint64_t to, size_t count) const;

  // The seq ranges of the bins after (or before) `seq` that hold a round with decisions, nearest
  // first, at most `limit`: the candidates a step forward (or back) reads record by record.
  std::vector<std::pair<uint64_t, uint64_t>> decided_bins_after(uint64_t seq, size_t limit) const;
  std::vector<std::pair<uint64_t, uint64_t>> decided_bins_before(uint64_t seq, size_t limit) const;

 private:
  size_t bin_of(uint64_t seq) const { return static_cast<size_t>((seq - first_seq_) / kBinRecords); }

  mutable std::mutex mu_;
  uint64_t first_seq_ = 0;
  uint64_t last_seq_ = 0;
  std::vector<TimelineBucket> bins_;
};

}  // namespace koordq::console
