// The decision actors as one object (design.md §4): an actor system with `threads` workers, the
// router and, behind it, the quota, queue and tree-coordinator actors. Callers outside the actor
// world (the serve loop, replay, tests, benchmarks) drive it synchronously: apply the records the
// sequencer made durable, then run the round. Given the same records, every thread count gives
// the same rounds (design.md §3).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/core/decision.hpp"
#include "actors/core/scheduler.hpp"
#include "actors/runtime/queue_actor.hpp"
#include "actors/runtime/read_side.hpp"
#include "base/result.hpp"
#include "journal/stored_record.hpp"

namespace caf {
class actor_system;
}

namespace koordq::actors::runtime {

struct QuotaView;

struct EngineOptions {
  size_t threads = 0;  // actor worker threads; 0: one per core
  LatencyObserver observe_latency;
  // Keep a read side (read_side.hpp): the pages of the state published after each applied batch,
  // for the serving surfaces, which then never ask the router.
  bool publish_reads = false;
  // Folds and rounds run on the calling thread over one Scheduler, without the actors: the same
  // decisions in the same order (design.md §3), for a caller with nothing to run beside them (the
  // virtual-clock simulator's discrete-event loop, where each hop between threads costs more than
  // the round). read_state and quota then wait while the caller folds or decides.
  bool on_calling_thread = false;
};

class DecisionEngine {
 public:
  // Starts from `initial`, the state after record `applied_seq` (a fresh Scheduler and 0, or a
  // restored snapshot).
  DecisionEngine(EngineOptions options, Scheduler initial, uint64_t applied_seq = 0);
  ~DecisionEngine();
  DecisionEngine(const DecisionEngine&) = delete;
  DecisionEngine& operator=(const DecisionEngine&) = delete;

  // Folds records in seq order; records at or below the applied seq are skipped. On a record
  // that does not apply, the state stays at the record before it and the Error names it.
  Status apply(std::vector<journal::StoredRecord> records);
  // One decide round on the current state.
  Result<std::vector<Decision>> decide();

  // The seq the router's state is applied up to, as of the last apply that returned; safe to read
  // from any thread (the API servers check their response caches against it before asking the
  // router for the state).
  uint64_t applied_seq() const { return applied_seq_.load(std::memory_order_acquire); }
  // The earliest time a round could decide something it cannot decide now, as of the last apply
  // (computed once per applied state, on first use).
  std::optional<int64_t> next_deadline();
  // Runs `read` on the router's state (blocking, after the message the router is busy with); for
  // the serve loop's own reads and snapshots. read_state and
  // quota may be called from any thread, concurrently with the driving thread's apply and decide.
  void read_state(const std::function<void(const Scheduler&, uint64_t applied_seq)>& read);
  // The pages of the latest publication of the read side (EngineOptions::publish_reads; else
  // null): never waits for the router, whatever it is doing.
  PublishedPages published() const;
  // Runs `read` on the read side's whole state (ReadSide::read_state); false without a read side.
  bool read_published_state(const std::function<void(const Scheduler&, uint64_t revision)>& read) const;
  // Waits until the read side has published `seq` or later (tests, benchmarks).
  bool wait_published(uint64_t seq);
  // Runs `task` on the read side's thread once it has folded what was applied so far
  // (ReadSide::later); false without a read side (the caller then does the work itself).
  bool read_published_later(ReadSide::StateTask task);
  // A quota actor's copy of its quota, or nullopt when no quota has that name.
  std::optional<QuotaView> quota(const std::string& name);
  // Actor worker threads (1 on the calling thread: the actor system then only serves the clock).
  size_t threads() const { return threads_; }
  // The engine's actor system, for the actors that live beside the router (the clock, clock.hpp).
  caf::actor_system& actor_system();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::unique_ptr<ReadSide> read_side_;
  size_t threads_;
  std::atomic<uint64_t> applied_seq_;
  std::optional<std::optional<int64_t>> next_deadline_;  // outer nullopt: not computed yet
};

}  // namespace koordq::actors::runtime
