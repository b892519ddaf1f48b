#include "controller/journal_upkeep.hpp"

#include "actors/wire/state_restore.hpp"
#include "base/log.hpp"

namespace koordq::controller {

namespace {

// A failed snapshot costs only a longer replay at the next start: it is logged, never thrown (on
// the read side's thread an exception would end the process).
void store_snapshot(journal::Journal& journal, const actors::Scheduler& s, uint64_t seq) {
  Status st = ok_status();
  try {
    st = actors::write_state_snapshot(journal, s, seq, s.now(), journal.uuid());
  } catch (const std::exception& e) {
    st = make_error(e.what());
  }
  if (!st.ok()) {
    KQ_LOG_ERROR("snapshot at seq {} failed: {}", seq, st.message());
    return;
  }
  KQ_V(5)("snapshot at seq {}", seq);
}

}  // namespace

void JournalUpkeep::snapshot() {
  // A snapshot asked of the read side may still be waiting (and is dropped when the engine stops):
  // only one this thread wrote is not written again.
  engine_.read_state([&](const actors::Scheduler& s, uint64_t seq) {
    if (seq == 0 || seq == written_here_) return;
    last_snapshot_ = seq;
    written_here_ = seq;
    store_snapshot(journal_, s, seq);
  });
}

void JournalUpkeep::after_cycle() {
  const uint64_t applied = engine_.applied_seq();
  if (applied >= last_snapshot_ + options_.snapshot_every) {
    // The journal outlives the engine and its read side (ServeStart), so the task may hold it.
    const bool later = engine_.read_published_later(
        [&journal = journal_](const actors::Scheduler& s, uint64_t seq) { store_snapshot(journal, s, seq); });
    if (later) {
      last_snapshot_ = applied;
    } else {
      snapshot();
    }
  }
  enforce_retention();
}

// Retention drops whole ranges behind a snapshot; checked every --snapshot-every records.
void JournalUpkeep::enforce_retention() {
  const uint64_t head = journal_.writer().durable_head().seq;
  if (head < retention_checked_ + options_.snapshot_every) return;
  retention_checked_ = head;
  journal::RetentionPolicy policy = options_.retention;
  if (options_.archived_seq) policy.keep_after_seq = options_.archived_seq();
  auto result = journal::apply_retention(journal_, policy);
  if (!result.ok()) {
    KQ_LOG_ERROR("journal retention failed: {}", result.message());
  } else if (result->dropped_records > 0 || result->dropped_snapshots > 0) {
    KQ_V(5)
    ("journal retention dropped {} records and {} snapshots; oldest retained seq {}", result->dropped_records,
     result->dropped_snapshots, result->first_seq);
  }
}

}  // namespace koordq::controller
