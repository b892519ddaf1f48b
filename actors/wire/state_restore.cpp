#include "actors/wire/state_restore.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_snapshot.hpp"
#include "base/log.hpp"
#include "journal/read_ahead_cursor.hpp"

namespace koordq::actors {
namespace {

// The newest snapshot at or before `target_seq` that restores under `config` (nullptr: under the
// configuration it was folded under).
std::optional<RestoredState> newest_usable_snapshot(journal::JournalReader& reader, uint64_t target_seq,
                                                    const DecisionConfig* config) {
  std::vector<uint64_t> seqs;
  for (const auto& entry : reader.snapshots()) {
    if (entry.seq <= target_seq) seqs.push_back(entry.seq);
  }
  std::sort(seqs.rbegin(), seqs.rend());
  const auto uuid = reader.uuid();
  for (const uint64_t seq : seqs) {
    auto found = reader.latest_snapshot_at_or_before(seq);
    if (!found.ok()) {
      KQ_LOG_WARNING("snapshot at seq {} cannot be read, trying an older one: {}", seq, found.message());
      continue;
    }
    if (!found->has_value() || (*found)->first != seq) continue;
    Result<DecisionConfig> under =
        config ? Result<DecisionConfig>(*config) : snapshot_decision_config((*found)->second);
    if (!under.ok()) {
      KQ_LOG_WARNING("snapshot at seq {} is not used, trying an older one: {}", seq, under.message());
      continue;
    }
    auto restored = decode_state_snapshot((*found)->second, *under);
    if (!restored.ok()) {
      KQ_LOG_WARNING("snapshot at seq {} is not used, trying an older one: {}", seq, restored.message());
      continue;
    }
    if (restored->seq != seq) {
      KQ_LOG_WARNING("snapshot stored at seq {} holds the state at seq {}; not used", seq, restored->seq);
      continue;
    }
    if (uuid.ok() && !uuid->empty() && restored->journal_uuid != *uuid) {
      KQ_LOG_WARNING("snapshot at seq {} was taken of journal {}, not of this journal {}; not used", seq,
                     restored->journal_uuid, *uuid);
      continue;
    }
    return std::move(restored).value();
  }
  return std::nullopt;
}

}  // namespace

Result<RestoredScheduler> restore_state(journal::JournalReader& reader, uint64_t target_seq,
                                        const DecisionConfig& config) {
  RestoredScheduler out;
  out.scheduler = Scheduler(config);
  // The records after the newest snapshot are read while it is decoded; should it not be usable,
  // the reading starts again after the one that is.
  uint64_t newest = 0;
  for (const auto& entry : reader.snapshots()) {
    if (entry.seq <= target_seq) newest = std::max(newest, entry.seq);
  }
  std::optional<journal::ReadAheadCursor> cursor;
  if (newest < target_seq) cursor.emplace(reader.cursor(newest + 1, target_seq));
  if (auto snapshot = newest_usable_snapshot(reader, target_seq, &config)) {
    out.scheduler = std::move(snapshot->scheduler);
    out.seq = snapshot->seq;
    out.snapshot_seq = out.seq;
  } else {
    const uint64_t first = reader.first_seq();
    if (first > 1) {
      return make_error("records before seq " + std::to_string(first) +
                        " were dropped by retention and no usable snapshot at or before seq " +
                        std::to_string(target_seq) + " covers them");
    }
  }
  if (out.seq >= target_seq) return out;
  if (out.seq != newest || !cursor) cursor.emplace(reader.cursor(out.seq + 1, target_seq));
  while (true) {
    auto next = cursor->next();
    if (!next.ok()) return next.error();
    if (!next->has_value()) break;
    const journal::StoredRecord& record = **next;
    const Status applied = apply_record(out.scheduler, record);
    if (!applied.ok()) return applied.error();
    out.seq = record.seq();
    ++out.applied_records;
  }
  return out;
}

std::optional<RestoredState> newest_snapshot(journal::JournalReader& reader, uint64_t target_seq) {
  return newest_usable_snapshot(reader, target_seq, nullptr);
}

Status write_state_snapshot(journal::Journal& journal, const Scheduler& scheduler, uint64_t seq, int64_t time,
                            const std::string& journal_uuid) {
  return journal.put_snapshot(seq, encode_state_snapshot(scheduler, seq, time, journal_uuid));
}

}  // namespace koordq::actors
