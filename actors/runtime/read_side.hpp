// The read side of the decision state (design.md §4, behaviour.md §18): what /metrics, the
// visibility API and the debug API read, published after each applied batch as immutable pages
// (actors/pages/read_pages.hpp) that no reader shares with the router.
//
// One replica of the state on a thread of its own, folded once with the batches the router
// applied (the same records, up to the seq the router reached, so the same state); after each
// fold the pages the batch touched are rebuilt (page_maintainer.hpp) and the new set of pages is
// published (one pointer swapped; unchanged pages are shared with the previous revision). So a
// reader of pages never sees a half-applied batch and never waits for the router or a fold, and
// the router never waits for a reader: it hands the batch over and goes on.
//
// The answers that need the whole state (the console's latest revision, through time travel) read
// the replica itself under a shared lock (read_state): such a reader waits at most for the fold of the
// batches in hand, never for a round, and holds back only the read side while it reads.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/pages/read_pages.hpp"
#include "journal/stored_record.hpp"

namespace koordq::actors::runtime {

class PageMaintainer;

using AppliedRecords = std::shared_ptr<const std::vector<journal::StoredRecord>>;
using PublishedPages = std::shared_ptr<const pages::ReadPages>;

class ReadSide {
 public:
  // Starts from `initial`, the router's state after record `revision`.
  ReadSide(const Scheduler& initial, uint64_t revision);
  ~ReadSide();
  ReadSide(const ReadSide&) = delete;
  ReadSide& operator=(const ReadSide&) = delete;

  // The router applied `records` up to seq `applied` (records after it failed there and are left
  // out here too). Returns at once; the batch is published on the read side's thread.
  void applied(AppliedRecords records, uint64_t applied);
  // The latest published pages; never waits for a fold. Holding them keeps them as they are.
  PublishedPages latest() const;
  // Runs `read` on the whole state of the read side, with the seq it is folded up to.
  void read_state(const std::function<void(const Scheduler&, uint64_t revision)>& read) const;
  // Waits until pages at `revision` or later are published (tests, benchmarks); false on stop.
  bool wait_published(uint64_t revision);
  // Runs `task` later on the read side's thread, with its state once it has folded every batch
  // handed to it so far (`revision` is where that state is, at least the router's seq when this
  // was called) and published their pages: work on the state at a revision (a snapshot) that the
  // router need not wait for. Tasks still waiting when the read side stops are dropped.
  using StateTask = std::function<void(const Scheduler&, uint64_t revision)>;
  void later(StateTask task);

 private:
  struct Pending {
    AppliedRecords records;
    uint64_t applied = 0;
  };

  void run();
  void fold(const Pending& batch);

  Scheduler state_;        // written by the read side's thread under state_mu_ only
  uint64_t revision_ = 0;  // likewise
  mutable std::shared_mutex state_mu_;
  std::unique_ptr<PageMaintainer> maintainer_;  // the read side's thread only
  mutable std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Pending> incoming_;  // under mu_
  std::vector<StateTask> tasks_;  // under mu_
  PublishedPages latest_;         // under mu_
  bool stopping_ = false;         // under mu_
  std::thread thread_;
};

}  // namespace koordq::actors::runtime
