// Snapshots of the live state and journal retention, driven by the serve loop after each cycle
// (design.md §5): a restart or a time-travel read then replays only the tail of the journal.
#pragma once

#include <cstdint>
#include <functional>

#include "actors/runtime/decision_engine.hpp"
#include "journal/journal.hpp"
#include "journal/retention.hpp"

namespace koordq::controller {

struct UpkeepOptions {
  uint64_t snapshot_every = 20'000;  // --snapshot-every: records between snapshots and retention checks
  journal::RetentionPolicy retention;
  // The seq up to which the archive holds the journal (--archive-url): retention keeps what follows.
  std::function<uint64_t()> archived_seq;
};

class JournalUpkeep {
 public:
  JournalUpkeep(UpkeepOptions options, journal::Journal& journal, actors::runtime::DecisionEngine& engine)
      : options_(std::move(options)), journal_(journal), engine_(engine) {}

  // The state after the last applied record, stored as a snapshot (on shutdown, and every
  // --snapshot-every records).
  void snapshot();
  // Snapshot every --snapshot-every records, on the read side's thread when the engine has one
  // (its replica is the state the router applied, and the loop need not wait for the encoding);
  // retention checked as often. Retention cuts only behind a snapshot that exists, so the one
  // still being written counts from the next check on.
  void after_cycle();

 private:
  void enforce_retention();

  UpkeepOptions options_;
  journal::Journal& journal_;
  actors::runtime::DecisionEngine& engine_;
  uint64_t retention_checked_ = 0;
  uint64_t last_snapshot_ = 0;  // the last snapshot written or asked of the read side
  uint64_t written_here_ = 0;   // the last one snapshot() wrote itself
};

}  // namespace koordq::controller
