#include "journal/retention.hpp"

#include <algorithm>

#include <rocksdb/write_batch.h>

#include "journal/keys.hpp"
#include "journal/retention_cut.hpp"
#include "journal/unit_index.hpp"

namespace koordq::journal {
namespace {

// The first seq that the policy wants to keep (records before it have expired).
Result<uint64_t> wanted_first_seq(Journal& journal, const RetentionPolicy& policy, uint64_t first, uint64_t last) {
  JournalReader& reader = journal.reader();
  uint64_t keep_from = first;
  if (policy.max_age_nanos) {
    auto newest = reader.get(last);
    if (!newest.ok()) return newest.error();
    if (newest->has_value()) {
      const int64_t cutoff = (*newest)->time() - *policy.max_age_nanos;
      if (auto s = reader.first_seq_at_or_after(cutoff)) keep_from = std::max(keep_from, *s);
    }
  }
  if (policy.max_bytes) {
    const uint64_t bytes = journal.store().disk_bytes();
    const uint64_t records = last - first + 1;
    if (bytes > *policy.max_bytes && records > 0) {
      const uint64_t per_record = std::max<uint64_t>(bytes / records, 1);
      const uint64_t excess = (bytes - *policy.max_bytes + per_record - 1) / per_record;
      keep_from = std::max(keep_from, std::min(first + excess, last));
    }
  }
  if (policy.keep_after_seq) keep_from = std::min(keep_from, std::max(first, *policy.keep_after_seq + 1));
  return keep_from;
}

}  // namespace

Result<RetentionResult> apply_retention(Journal& journal, const RetentionPolicy& policy) {
  JournalReader& reader = journal.reader();
  RetentionResult result;
  const uint64_t first = reader.first_seq();
  const uint64_t last = reader.last_seq();
  result.first_seq = first;
  if (first == 0) return result;

  auto wanted = wanted_first_seq(journal, policy, first, last);
  if (!wanted.ok()) return wanted.error();
  const auto snapshots = reader.snapshots();

  // Cut after the newest snapshot that lies before the wanted first seq; without one, keep all.
  uint64_t cut_snapshot = 0;
  for (const auto& s : snapshots) {
    if (s.seq + 1 <= *wanted && s.seq >= first) cut_snapshot = s.seq;
  }
  rocksdb::WriteBatch batch;
  uint64_t new_first = first;
  if (cut_snapshot > 0 && cut_snapshot + 1 > first) {
    new_first = cut_snapshot + 1;
    auto at_cut = reader.get(new_first);
    if (!at_cut.ok()) return at_cut.error();
    if (!at_cut->has_value()) return make_error("retention: seq " + std::to_string(new_first) + " is missing");
    batch.DeleteRange(journal.store().log(), seq_key(first), seq_key(new_first));
    // Time is non-decreasing in seq: every entry of a dropped seq sorts before (time(F), F).
    batch.DeleteRange(journal.store().time(), time_key(INT64_MIN, 0), time_key((*at_cut)->time(), new_first));
    batch.Put(journal.store().meta(), kMetaFirstSeq, std::to_string(new_first));
    const RetentionCut cut =
        make_retention_cut(journal.uuid(), new_first, (*at_cut)->prev_hash(), journal.signing_key());
    batch.Put(journal.store().meta(), kMetaRetentionCut, render_retention_cut(cut));
    result.dropped_records = new_first - first;
  }

  // Snapshots: the newest N, plus the one the oldest retained revision needs.
  std::vector<uint64_t> seqs;
  for (const auto& s : snapshots) seqs.push_back(s.seq);
  std::sort(seqs.rbegin(), seqs.rend());
  auto drop_snapshot = [&](uint64_t s) {
    batch.Delete(journal.store().snapshot(), seq_key(s));
    batch.Delete(journal.store().meta(), snapshot_index_key(s));
    ++result.dropped_snapshots;
  };
  for (size_t i = 0; i < seqs.size(); ++i) {
    const uint64_t s = seqs[i];
    const bool newest = i < policy.keep_snapshots;
    const bool needed_for_oldest = s == cut_snapshot;
    if (!newest && !needed_for_oldest) {
      drop_snapshot(s);
    } else if (s + 1 < new_first && !needed_for_oldest) {
      drop_snapshot(s);  // older than anything retained
    }
  }
  if (batch.Count() == 0) return result;
  if (auto s = journal.store().write(batch, true); !s.ok()) return s.error();
  if (result.dropped_records > 0) {
    // The index keys of the dropped records (a superset of the index is harmless, see unit_index.hpp,
    // so this runs after the records went and a failure here loses nothing).
    if (auto dropped = drop_unit_index_before(journal.store(), new_first); !dropped.ok()) return dropped.error();
    const std::string from = seq_key(first), to = seq_key(new_first);
    rocksdb::Slice begin(from), end(to);
    journal.store()
        .db()
        .CompactRange(rocksdb::CompactRangeOptions(), journal.store().log(), &begin, &end)
        .PermitUncheckedError();
  }
  result.first_seq = new_first;
  return result;
}

}  // namespace koordq::journal
