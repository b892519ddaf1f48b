#include "console/timeline_index.hpp"

#include <algorithm>

namespace koordq::console {

void TimelineIndex::add(uint64_t seq, int64_t time, const MomentCounts& counts) {
  std::lock_guard lock(mu_);
  if (last_seq_ == 0 || seq != last_seq_ + 1) {
    first_seq_ = seq;
    bins_.clear();
  }
  last_seq_ = seq;
  const size_t bin = bin_of(seq);
  if (bin == bins_.size()) bins_.push_back(TimelineBucket{seq, seq, time, time, {}});
  TimelineBucket& b = bins_[bin];
  b.last_seq = seq;
  b.last_time = time;
  b.counts += counts;
}

uint64_t TimelineIndex::first_seq() const {
  std::lock_guard lock(mu_);
  return first_seq_;
}

uint64_t TimelineIndex::last_seq() const {
  std::lock_guard lock(mu_);
  return last_seq_;
}

std::vector<TimelineBucket> TimelineIndex::buckets(uint64_t from, uint64_t to, size_t count) const {
  std::lock_guard lock(mu_);
  std::vector<TimelineBucket> out;
  if (bins_.empty() || count == 0) return out;
  from = std::max(from, first_seq_);
  to = std::min(to, last_seq_);
  if (from > to) return out;
  const size_t first_bin = bin_of(from);
  const size_t bins = bin_of(to) - first_bin + 1;
  const size_t per_bucket = (bins + count - 1) / count;
  for (size_t i = first_bin; i < first_bin + bins; i += per_bucket) {
    TimelineBucket sum = bins_[i];
    for (size_t j = i + 1; j < std::min(i + per_bucket, first_bin + bins); ++j) {
      sum.last_seq = bins_[j].last_seq;
      sum.last_time = bins_[j].last_time;
      sum.counts += bins_[j].counts;
    }
    out.push_back(sum);
  }
  return out;
}

std::vector<std::pair<uint64_t, uint64_t>> TimelineIndex::decided_bins_after(uint64_t seq, size_t limit) const {
  std::lock_guard lock(mu_);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  if (bins_.empty() || seq >= last_seq_) return out;
  for (size_t i = seq < first_seq_ ? 0 : bin_of(seq); i < bins_.size() && out.size() < limit; ++i) {
    if (bins_[i].counts.decided_rounds > 0) out.emplace_back(bins_[i].first_seq, bins_[i].last_seq);
  }
  return out;
}

std::vector<std::pair<uint64_t, uint64_t>> TimelineIndex::decided_bins_before(uint64_t seq, size_t limit) const {
  std::lock_guard lock(mu_);
  std::vector<std::pair<uint64_t, uint64_t>> out;
  if (bins_.empty() || seq <= first_seq_) return out;
  for (size_t i = std::min(bin_of(std::min(seq, last_seq_)), bins_.size() - 1) + 1; i-- > 0 && out.size() < limit;) {
    if (bins_[i].counts.decided_rounds > 0) out.emplace_back(bins_[i].first_seq, bins_[i].last_seq);
  }
  return out;
}

}  // namespace koordq::console
