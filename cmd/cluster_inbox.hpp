// What reaches the cluster serve loop from other threads (design.md §3, the sequencer's inputs):
// the watchers' relists and events, the writers' answers, and the leader election's changes.
// The loop takes everything that arrived at once and turns it into one input batch.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "kube/client/resource_watcher.hpp"
#include "schema/json_watch_event.hpp"

namespace koordq::cmd {

struct LoopInput {
  enum class Kind {
    kRelist,    // resource, list
    kWatch,     // event
    kOutcome,   // outcome
    kAcquired,  // identity: this replica now leads
    kLost,      // the Lease was lost: stop deciding and writing at once
    kFatal,     // message: the process must end with exit code 1
    kTick,      // the clock: a deadline has passed and nothing was appended since
  };
  Kind kind = Kind::kWatch;
  schema::ObjectKind resource = schema::ObjectKind::kQueueUnit;
  kube::ListSnapshot list;
  schema::WatchEvent event;
  actors::Outcome outcome;
  std::string text;
  int32_t lease_transitions = 0;  // kAcquired, kLost
};

class ClusterInbox {
 public:
  void push(LoopInput input);
  // Everything queued, waiting up to `wait` for the first input; empty on timeout or wake().
  std::vector<LoopInput> take(std::chrono::nanoseconds wait);
  void wake();

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<LoopInput> inputs_;
  bool woken_ = false;
};

// The watchers' side: every relist and event goes to the inbox in stream order.
class InboxSink : public kube::WatchSink {
 public:
  explicit InboxSink(ClusterInbox& inbox) : inbox_(inbox) {}
  void on_relist(const kube::WatchedResource& resource, kube::ListSnapshot list) override;
  void on_event(const kube::WatchedResource& resource, schema::WatchEvent event) override;
  void on_bookmark(const kube::WatchedResource&, const std::string&) override {}
  void on_problem(const kube::WatchedResource& resource, const std::string& message) override;

 private:
  ClusterInbox& inbox_;
};

}  // namespace koordq::cmd
