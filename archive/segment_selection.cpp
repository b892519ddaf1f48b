#include "archive/segment_selection.hpp"

#include <fmt/format.h>

namespace koordq::archive {

Result<std::vector<ArchivedSegment>> segments_for_range(const std::vector<ArchivedSegment>& segments, uint64_t from,
                                                        uint64_t to) {
  if (from == 0 || to < from) return make_error(fmt::format("an empty seq range {}..{}", from, to));
  if (segments.empty()) return make_error("the archive holds no segment of this journal");
  std::vector<ArchivedSegment> out;
  uint64_t next = from;  // the first seq of the range not yet held by a chosen segment
  for (const ArchivedSegment& segment : segments) {
    if (segment.name.last_seq < next) continue;  // wholly before what is still needed
    if (segment.name.first_seq > next) break;    // seq `next` is in no segment
    out.push_back(segment);
    if (segment.name.last_seq >= to) return out;
    next = segment.name.last_seq + 1;
  }
  const uint64_t first = segments.front().name.first_seq;
  const uint64_t last = segments.back().name.last_seq;
  if (next < first) {
    return make_error(
        fmt::format("the archive starts at seq {}: seq {}..{} is not in it", first, next, std::min(to, first - 1)));
  }
  if (next > last) {
    return make_error(fmt::format("the archive ends at seq {}: seq {}..{} is not in it yet", last, next, to));
  }
  return make_error(
      fmt::format("seq {} is missing from the archive: no segment holds it (run `koordq archive "
                  "verify` to see the whole gap)",
                  next));
}

Status check_join(uint64_t archive_last, const journal::Hash& archive_hash, uint64_t local_first,
                  const journal::Hash& local_prev_hash) {
  if (local_first <= 1) return ok_status();
  if (archive_last + 1 < local_first) {
    return make_error(
        fmt::format("the archive ends at seq {} but the local journal starts at seq {}: seq {}..{} is in neither (the "
                    "archive lags behind retention; wait for the leader to upload it, or read the archive alone)",
                    archive_last, local_first, archive_last + 1, local_first - 1));
  }
  if (archive_hash != local_prev_hash) {
    return make_error(fmt::format(
        "the local journal does not continue the archive: its seq {} has prevHash {}, but the archive's seq {} "
        "has hash {} (a fork: two different histories; check both with `koordq archive verify` and `koordq "
        "journal verify`)",
        local_first, journal::to_hex(local_prev_hash), local_first - 1, journal::to_hex(archive_hash)));
  }
  return ok_status();
}

}  // namespace koordq::archive
