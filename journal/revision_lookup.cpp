#include "journal/revision_lookup.hpp"

#include "base/rfc3339.hpp"

namespace koordq::journal {

Result<RetainedRange> retained_range(JournalReader& reader) {
  RetainedRange r;
  r.first = reader.first_seq();
  r.last = reader.last_seq();
  if (r.first != 0) {
    auto first = reader.get(r.first);
    if (!first.ok()) return first.error();
    if (first->has_value()) r.first_time = (*first)->time();
  }
  return r;
}

Result<uint64_t> check_revision(const RetainedRange& range, uint64_t revision) {
  if (revision > range.last) {
    return make_error("revision " + std::to_string(revision) + " is newer than the latest revision " +
                      std::to_string(range.last));
  }
  if (revision < range.first) {
    return make_error("revision " + std::to_string(revision) + " is older than the oldest retained revision " +
                      std::to_string(range.first));
  }
  return revision;
}

Result<uint64_t> revision_at_time(JournalReader& reader, const RetainedRange& range, int64_t t,
                                  const std::string& text) {
  const auto seq = range.first == 0 ? std::nullopt : reader.last_seq_at_or_before(t);
  if (!seq || *seq < range.first) {
    return make_error("time " + text + " is older than the oldest retained revision " + std::to_string(range.first) +
                      (range.first ? " (" + base::format_rfc3339_millis(range.first_time) + ")" : std::string()));
  }
  return *seq;
}

std::optional<uint64_t> first_revision_from_time(JournalReader& reader, int64_t t) {
  return reader.first_seq_at_or_after(t);
}

}  // namespace koordq::journal
