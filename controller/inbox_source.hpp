// What the serve loop journals, and where it comes from (design.md §3, the sequencer's inputs).
// Two sources implement it: the Kubernetes watch (cluster_inbox.hpp: watchers, writers' answers,
// the leader election and the clock, from other threads) and the cluster simulator
// (simulated_cluster_inbox.hpp: discrete events on a wall or virtual clock). Each take() becomes
// one input batch of the loop.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "journal/record_body.hpp"
#include "kube/client/resource_watcher.hpp"
#include "schema/json_watch_event.hpp"

namespace koordq::controller {

struct LoopInput {
  enum class Kind {
    kRelist,    // resource, list: diffed against the journaled state into a relist epoch
    kWatch,     // event
    kOutcome,   // outcome
    kAcquired,  // text (identity): this replica now leads
    kLost,      // the Lease was lost: stop deciding and writing at once
    kFatal,     // text (message): the process must end with exit code 1
    kTick,      // the clock: a deadline has passed and nothing was appended since
    kRecord,    // body: a record made by the source itself, journaled as it is
  };
  Kind kind = Kind::kWatch;
  schema::ObjectKind resource = schema::ObjectKind::kQueueUnit;
  kube::ListSnapshot list{};
  schema::WatchEvent event{};
  actors::Outcome outcome{};
  std::string text{};
  int32_t lease_transitions = 0;  // kAcquired, kLost
  std::shared_ptr<const journal::RecordBody> body{};
};

class InboxSource {
 public:
  virtual ~InboxSource() = default;
  // Everything that arrived, waiting up to `wait` for the first input; empty when nothing did.
  virtual std::vector<LoopInput> take(std::chrono::nanoseconds wait) = 0;
  // The time a tick input is judged against: the wall clock, or the simulator's.
  virtual int64_t now() const = 0;
  // The loop's next deadline while it decides (none otherwise) and the time of the last record
  // its last round saw: a source with a clock hands a kTick in once one is due.
  virtual bool has_clock() const { return false; }
  virtual void arm_clock(std::optional<int64_t> /*deadline*/, int64_t /*seen_through*/) {}
  // The time stamped on the next round record (a virtual clock); none: the journal's clock.
  virtual std::optional<int64_t> round_time() const { return std::nullopt; }
  // No input will come any more (a simulation past its duration).
  virtual bool finished() const { return false; }
};

}  // namespace koordq::controller
