// The read side of the decision state (design.md §4, behaviour.md §18): what /metrics, the
// visibility API and the debug API read, published after each applied batch as an immutable
// state that no reader shares with the router.
//
// Two replicas of the state on a thread of their own, folded with the batches the router applied
// (the same records, up to the seq the router reached, so the same state): the batch goes into
// the replica nobody reads, that replica is published (one pointer swapped), and the other one
// catches up once its last reader lets go. So a reader never sees a half-applied batch, never
// waits for the router or a fold, and the router never waits for a reader: a reader that holds an
// old state only holds back the read side, whose next publication then carries every batch since.
// The cost is two more copies of the state in memory, and each batch folded twice more.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "journal/stored_record.hpp"

namespace koordq::actors::runtime {

// A published state: the decision state after record `revision`, unchanged while it is held.
struct PublishedState {
  const Scheduler* state = nullptr;
  uint64_t revision = 0;
};

using AppliedRecords = std::shared_ptr<const std::vector<journal::StoredRecord>>;

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
  // The latest published state; never waits for a fold. Holding it keeps it as it is.
  std::shared_ptr<const PublishedState> latest() const;
  // Waits until a state at `revision` or later is published (tests, benchmarks); false on stop.
  bool wait_published(uint64_t revision);

 private:
  struct Replica {
    Scheduler state;
    uint64_t revision = 0;
    uint64_t folded = 0;  // the number of the last batch folded in
    bool read = false;    // a published pointer to it is alive (under Shared::mu)
  };
  struct Pending {
    AppliedRecords records;
    uint64_t applied = 0;
    uint64_t number = 0;  // batches are numbered from 1 as the read side takes them
  };
  // What a published pointer keeps alive, so that one held past the read side's end stays valid.
  struct Shared {
    Replica replicas[2];
    std::mutex mu;
    std::condition_variable changed;
    std::deque<Pending> incoming;                  // under mu
    std::shared_ptr<const PublishedState> latest;  // under mu
    bool stopping = false;                         // under mu
  };

  void run();
  static void fold(Replica& replica, const Pending& batch);
  void publish(size_t index);

  std::shared_ptr<Shared> shared_;
  size_t published_index_ = 0;   // the read side's thread only
  std::deque<Pending> backlog_;  // batches not yet in both replicas; the read side's thread only
  std::thread thread_;
};

}  // namespace koordq::actors::runtime
