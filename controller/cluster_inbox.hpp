// The Kubernetes watch as the serve loop's inbox source: the watchers' relists and events, the
// writers' answers and the leader election's changes arrive from other threads, and the clock
// actor hands in a tick when a deadline passes. The loop takes everything that arrived at once.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "actors/runtime/clock.hpp"
#include "actors/runtime/decision_engine.hpp"
#include "controller/inbox_source.hpp"
#include "kube/client/resource_watcher.hpp"

namespace koordq::controller {

class ClusterInbox : public InboxSource {
 public:
  explicit ClusterInbox(std::function<int64_t()> wall_now) : wall_now_(std::move(wall_now)) {}

  void push(LoopInput input);
  std::vector<LoopInput> take(std::chrono::nanoseconds wait) override;
  // take() returns at once, empty.
  void wake();

  int64_t now() const override { return wall_now_(); }
  // Ticks come from a clock actor of `engine` (actors/runtime/clock.hpp) from now on.
  void start_clock(actors::runtime::DecisionEngine& engine, actors::runtime::TickPolicy policy);
  bool has_clock() const override { return clock_ != nullptr; }
  void arm_clock(std::optional<int64_t> deadline, int64_t seen_through) override;

 private:
  std::function<int64_t()> wall_now_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<LoopInput> inputs_;
  bool woken_ = false;
  std::unique_ptr<actors::runtime::Clock> clock_;
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

}  // namespace koordq::controller
