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

using FoundSnapshot = Result<std::optional<std::pair<uint64_t, std::string>>>;

// A snapshot read from the journal (`found`: the newest at or before some seq), restored under
// `config` (nullptr: under the configuration it was folded under): std::nullopt when there is
// none, an error saying why the one found is not used. `found_seq` is its seq (0 when it could
// not be read).
Result<std::optional<RestoredState>> restore_snapshot(FoundSnapshot found, const DecisionConfig* config,
                                                      const Result<std::string>& uuid, uint64_t& found_seq) {
  found_seq = 0;
  if (!found.ok()) return make_error("cannot be read: " + found.message());
  if (!found->has_value()) return std::optional<RestoredState>();
  found_seq = (*found)->first;
  Result<DecisionConfig> under = config ? Result<DecisionConfig>(*config) : snapshot_decision_config((*found)->second);
  if (!under.ok()) return under.error();
  auto restored = decode_state_snapshot((*found)->second, *under);
  if (!restored.ok()) return restored.error();
  if (restored->seq != found_seq) return make_error("it holds the state at seq " + std::to_string(restored->seq));
  if (uuid.ok() && !uuid->empty() && restored->journal_uuid != *uuid) {
    return make_error("it was taken of journal " + restored->journal_uuid + ", not of this journal " + *uuid);
  }
  return std::optional<RestoredState>(std::move(restored).value());
}

// The newest snapshot at or before `target_seq` that restores under `config`; `newest_found` is
// the newest one as the caller's one seek read it. Only when it is not usable are the others listed
// (which reads every snapshot) and tried from the newest down.
std::optional<RestoredState> newest_usable_snapshot(journal::JournalReader& reader, uint64_t target_seq,
                                                    const DecisionConfig* config, FoundSnapshot newest_found) {
  const auto uuid = reader.uuid();
  uint64_t newest = 0;
  auto restored = restore_snapshot(std::move(newest_found), config, uuid, newest);
  if (restored.ok()) return std::move(*restored);
  KQ_LOG_WARNING("snapshot at seq {} is not used, trying an older one: {}",
                 newest == 0 ? std::string("at or before ") + std::to_string(target_seq) : std::to_string(newest),
                 restored.message());
  std::vector<uint64_t> seqs;
  for (const auto& entry : reader.snapshots()) {
    if (entry.seq <= target_seq && (newest == 0 || entry.seq < newest)) seqs.push_back(entry.seq);
  }
  std::sort(seqs.rbegin(), seqs.rend());
  for (const uint64_t seq : seqs) {
    uint64_t found = 0;
    auto older = restore_snapshot(reader.latest_snapshot_at_or_before(seq), config, uuid, found);
    if (older.ok() && older->has_value() && found == seq) return std::move(*older);
    if (!older.ok()) KQ_LOG_WARNING("snapshot at seq {} is not used, trying an older one: {}", seq, older.message());
  }
  return std::nullopt;
}

}  // namespace

Result<RestoredScheduler> restore_state(journal::JournalReader& reader, uint64_t target_seq,
                                        const DecisionConfig& config) {
  RestoredScheduler out;
  out.scheduler = Scheduler(config);
  // The newest snapshot is read once (its seek reads the whole value); the records after it are
  // read while it is decoded. Should it not be usable, the reading starts again after the one
  // that is.
  FoundSnapshot found = reader.latest_snapshot_at_or_before(target_seq);
  const uint64_t newest = found.ok() && found->has_value() ? (*found)->first : 0;
  std::optional<journal::ReadAhead<PreparedRecord>> cursor;
  if (newest < target_seq) cursor.emplace(reader.cursor(newest + 1, target_seq), prepare_record, defer_record);
  if (auto snapshot = newest_usable_snapshot(reader, target_seq, &config, std::move(found))) {
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
  if (out.seq != newest || !cursor)
    cursor.emplace(reader.cursor(out.seq + 1, target_seq), prepare_record, defer_record);
  while (true) {
    auto next = cursor->next();
    if (!next.ok()) return next.error();
    if (!*next) break;
    if (const Status applied = apply_prepared(out.scheduler, **next); !applied.ok()) return applied.error();
    out.seq = (*next)->record.seq();
    ++out.applied_records;
  }
  return out;
}

std::optional<RestoredState> newest_snapshot(journal::JournalReader& reader, uint64_t target_seq) {
  return newest_usable_snapshot(reader, target_seq, nullptr, reader.latest_snapshot_at_or_before(target_seq));
}

Status write_state_snapshot(journal::Journal& journal, const Scheduler& scheduler, uint64_t seq, int64_t time,
                            const std::string& journal_uuid) {
  return journal.put_snapshot(seq, encode_state_snapshot(scheduler, seq, time, journal_uuid));
}

}  // namespace koordq::actors
