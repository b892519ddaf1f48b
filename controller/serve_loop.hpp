// The serve loop (design.md §1, §3; behaviour.md §19): each step takes what its inbox source
// has, journals it as one input batch, folds the durable batch into the live state, and on the
// leader decides a round on it, journals and folds the round, and hands the round's writes to
// the writer, whose answers come back through the source. The same loop serves a cluster (the
// Kubernetes watch, leader election, journal failures survived) and --simulate (the simulator
// as the source, leading from the start); a test drives it step by step.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/runtime/decision_engine.hpp"
#include "actors/runtime/tick_policy.hpp"
#include "controller/inbox_source.hpp"
#include "controller/journal_upkeep.hpp"
#include "controller/loop_observer.hpp"
#include "controller/round_writer.hpp"
#include "controller/serve_end.hpp"
#include "controller/sync_appender.hpp"
#include "journal/journal.hpp"
#include "schema/raw_object.hpp"

namespace koordq::controller {

struct LoopOptions {
  schema::RawObjectMode raw_mode = schema::RawObjectMode::kRedacted;
  int64_t tick_min_interval_ns = 10'000'000;  // --tick-min-interval
  UpkeepOptions upkeep;
  // A cluster (§19): a failed append pauses ingestion, gives leadership up and is retried every
  // second until one succeeds. Otherwise (--simulate) it ends the loop.
  bool survive_journal_failures = true;
  // --simulate: leading and synced from the start (no election; its relist is its first batch,
  // and the initial sync is announced once that batch is decided on).
  bool leading_from_start = false;
  // How long a step waits for the source's first input (the loop checks for a stop between waits).
  std::chrono::nanoseconds take_wait = std::chrono::milliseconds(100);
};

// What a journal write failure and its recovery do outside the loop (§19): the election gives the
// Lease up and campaigns again; watch ingestion pauses and resumes (a fresh relist epoch per
// resource, diffed against the journaled state, so nothing that changed meanwhile is missed).
struct JournalFailureHooks {
  std::function<void()> release;           // give the Lease up; campaign no more
  std::function<void()> resume;            // campaign again
  std::function<void()> pause_ingestion;   // stop the watchers
  std::function<void()> resume_ingestion;  // start them again
};

struct LoopParts {
  journal::Journal& journal;
  actors::runtime::DecisionEngine& engine;
  InboxSource& source;
  LoopObserver& observer;
  std::function<std::unique_ptr<RoundWriter>()> make_writer;  // on becoming the leader
  std::function<bool()> stop_requested;
  JournalFailureHooks failure_hooks = {};
};

class ServeLoop {
 public:
  ServeLoop(LoopOptions options, LoopParts parts);
  ~ServeLoop();
  ServeLoop(const ServeLoop&) = delete;
  ServeLoop& operator=(const ServeLoop&) = delete;

  // Steps until a stop is requested or the source is finished (kStopped), or the loop must end.
  ServeEnd run();
  // One step: the source's inputs journaled as one batch, folded, and on the leader decided on,
  // the round journaled, folded and written. nullopt while the loop goes on.
  std::optional<ServeEnd> step();
  // The final snapshot of the live state (on shutdown).
  void snapshot() { upkeep_.snapshot(); }

 private:
  using Bodies = std::vector<std::shared_ptr<const journal::RecordBody>>;
  using Next = std::optional<ServeEnd>;

  void arm_clock();
  Next take(LoopInput in);
  Next relist(schema::ObjectKind kind, kube::ListSnapshot& list);
  Next cycle();
  Next became_leader();
  Next decide(uint64_t basis);
  Next append_failed(const std::string& error);
  void journal_failed(std::string error);
  void retry_failed_append();
  void stop_writing();
  Next apply(const std::vector<uint64_t>& seqs);
  Next fail(const std::string& message);
  void done(LoopStep step) { observer_.step_done(step); }

  LoopOptions options_;
  journal::Journal& journal_;
  actors::runtime::DecisionEngine& engine_;
  InboxSource& source_;
  LoopObserver& observer_;
  std::function<std::unique_ptr<RoundWriter>()> make_writer_;
  std::function<bool()> stop_requested_;
  JournalFailureHooks failure_hooks_;
  std::unique_ptr<RoundWriter> writer_;  // while leading
  std::optional<std::string> failure_;   // the journal append failing, §19
  std::deque<LoopInput> deferred_;       // inputs that arrived while it failed (ingestion paused)
  SyncAppender appender_;
  actors::runtime::TickPolicy tick_policy_;
  struct Armed {
    std::optional<int64_t> deadline;
    int64_t last_append = 0;
    bool operator==(const Armed&) const = default;
  };
  std::optional<Armed> armed_;  // what the source's clock was last armed with
  JournalUpkeep upkeep_;
  Bodies batch_;
  std::set<schema::ObjectKind> relisted_;
  bool synced_ = false;
  bool announce_sync_ = false;  // --simulate: after the first round
  bool acquiring_ = false;
  bool leading_ = false;
  // The time of the last record a round has seen (its basis): a deadline after it needs a tick;
  // one before it was served by that round (the round record's own time does not count).
  int64_t seen_through_;
  int64_t last_applied_time_ = 0;
  std::optional<int64_t> last_tick_;
};

}  // namespace koordq::controller
