// What both serve loops (cluster and --simulate) do with the journal and the live state besides
// the input → round cycle: the journaled objects for a relist diff, the `unknown` outcomes of writes
// left unanswered by the previous process, snapshots every --snapshot-every records, retention.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/runtime/decision_engine.hpp"
#include "base/result.hpp"
#include "cmd/serve_flags.hpp"
#include "journal/capnp_record_body.hpp"
#include "journal/journal.hpp"
#include "kube/ingest/relist_diff.hpp"
#include "schema/raw_object.hpp"
#include "schema/watched_object.hpp"

namespace koordq::cmd {

schema::RawObjectMode raw_object_mode_of(const ServeOptions& options);

// Every object of the state (quotas, Queues, QueueUnits), as last journaled.
std::vector<schema::WatchedObject> journaled_objects(const actors::Scheduler& s);

// A relist epoch's changes (design.md §7): `listed` diffed against the journaled objects of
// `kind` in `s`, read in place (only a vanished object is copied, into its DELETED).
std::vector<kube::RelistEvent> relist_changes(const actors::Scheduler& s, schema::ObjectKind kind,
                                              std::vector<schema::DecodedObject>&& listed,
                                              schema::RawObjectMode raw_mode);

// design.md §3: at start, a decided write whose answer never came gets an `unknown` outcome,
// which releases what it reserved; the watch then shows whether it had landed. Unit status writes,
// spec.queue patches (written again by a later round) and auto-created Queue writes.
// The unit writes carry decision index 0: the state keeps only the round's seq of a unit's write.
std::vector<actors::Outcome> unanswered_writes(const actors::Scheduler& s);
// The same, each unit write addressed to its decision's index in its round record (`reader`
// holds the rounds), so that explain and the outcome's reader find the decision it answers.
std::vector<actors::Outcome> unanswered_writes(const actors::Scheduler& s, journal::JournalReader& reader);

// The journal of `serve` opened (a corrupt one quarantined and counted, §21) and its latest state
// rebuilt from the newest snapshot and the records after it; errors are logged here. `cluster`:
// the identity of the cluster served (journal/cluster_identity.hpp); a journal of another is
// refused unchanged.
struct OpenedServeJournal {
  std::unique_ptr<journal::Journal> journal;
  actors::Scheduler scheduler;
};
Result<OpenedServeJournal> open_serve_journal(const ServeOptions& options, const std::string& cluster,
                                              const std::function<void()>& on_quarantine);

// The start of a process in the journal (design.md §3): its `config` record, then an `unknown`
// outcome for every write the previous process left unanswered, appended durably and folded into
// `scheduler` exactly as read back, so the live state after them is the one a replay folds (the
// config record resets what the previous process had published). `explicit_time` stamps every
// record (the simulator's virtual clock). Returns the appended seqs; errors are logged here.
Result<std::vector<uint64_t>> append_process_start(journal::Journal& journal, actors::Scheduler& scheduler,
                                                   std::unique_ptr<journal::CapnpRecordBody> config,
                                                   std::optional<int64_t> explicit_time = std::nullopt);

// Snapshots of the live state and retention, driven by the serve loop after each cycle.
class JournalUpkeep {
 public:
  JournalUpkeep(const ServeOptions& options, journal::Journal& journal, actors::runtime::DecisionEngine& engine)
      : options_(options), journal_(journal), engine_(engine) {}

  // The state after the last applied record, stored as a snapshot (on shutdown, and every
  // --snapshot-every records), so a restart or a time-travel read replays only the tail.
  void snapshot();
  // Snapshot every --snapshot-every records; retention checked as often.
  void after_cycle();

 private:
  void enforce_retention();

  const ServeOptions& options_;
  journal::Journal& journal_;
  actors::runtime::DecisionEngine& engine_;
  uint64_t retention_checked_ = 0;
  uint64_t last_snapshot_ = 0;
};

}  // namespace koordq::cmd
