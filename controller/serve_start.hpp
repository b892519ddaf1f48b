// The one start of `serve`, on a cluster and under --simulate (design.md §3): open the journal
// (a corrupt one quarantined, §21), rebuild the latest state from the newest snapshot and the
// records after it, journal the process start (its `config` record and an `unknown` outcome for
// every write the previous process left unanswered, unanswered_writes.hpp), and start the router
// (the decision engine) on that state. Errors are logged here.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/core/decision_config.hpp"
#include "actors/core/scheduler.hpp"
#include "actors/runtime/decision_engine.hpp"
#include "base/result.hpp"
#include "journal/capnp_record_body.hpp"
#include "journal/journal.hpp"

namespace koordq::controller {

struct StartOptions {
  journal::JournalOptions journal;  // its `cluster` is start_serve()'s
  std::string signing_key_file;     // --journal-signing-key-file
  actors::DecisionConfig decision;
  actors::runtime::EngineOptions engine;
};

struct StartHooks {
  std::function<void()> on_quarantine;  // the journal was corrupt and is quarantined
  // The `config` record of this start, for the opened journal (its UUID, the quarantine report).
  std::function<std::unique_ptr<journal::CapnpRecordBody>(const journal::Journal&)> config_record;
  // The time stamped on the process start records, given the restored state (a virtual clock);
  // unset: the journal's clock.
  std::function<std::optional<int64_t>(const actors::Scheduler&)> start_time;
};

struct ServeStart {
  // Declared before the engine, so destroyed after it: the engine's read side writes snapshots to
  // the journal until the engine stops.
  std::unique_ptr<journal::Journal> journal;
  std::unique_ptr<actors::runtime::DecisionEngine> engine;
  bool fresh = false;      // the journal had no record before this start
  int64_t state_time = 0;  // the state's "now" after the process start
};

// `cluster`: the identity of the cluster served (journal/cluster_identity.hpp); a journal of
// another is refused unchanged.
Result<ServeStart> start_serve(const StartOptions& options, const std::string& cluster, const StartHooks& hooks);

// The steps of start_serve(), apart for tests and benchmarks.
struct OpenedServeJournal {
  std::unique_ptr<journal::Journal> journal;
  actors::Scheduler scheduler;
};
Result<OpenedServeJournal> open_serve_journal(const StartOptions& options, const std::string& cluster,
                                              const std::function<void()>& on_quarantine);

// The start of a process in the journal: its `config` record, then an `unknown` outcome for every
// write the previous process left unanswered, appended durably and folded into `scheduler` exactly
// as read back, so the live state after them is the one a replay folds (the config record resets
// what the previous process had published). `explicit_time` stamps every record. Returns the
// appended seqs.
Result<std::vector<uint64_t>> append_process_start(journal::Journal& journal, actors::Scheduler& scheduler,
                                                   std::unique_ptr<journal::CapnpRecordBody> config,
                                                   std::optional<int64_t> explicit_time = std::nullopt);

}  // namespace koordq::controller
