// The leadership fence of the leader's writes (behaviour.md §19): the elector opens it on every
// successful acquire or renewal until that attempt's start + the renew deadline, by the monotonic
// clock, and closes it at once when leadership ends (lost, released, stopped). A writer holds a
// FencePass of the reign it was made in; HttpClient checks the pass immediately before each
// attempt of a request is written to the socket, so no write leaves once the deadline has passed,
// even when the elector's thread has not yet noticed (stopped, starved, or blocked on a request).
// A pass of an ended reign never opens again, even when a later reign opens the fence. Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>

#include "base/result.hpp"

namespace koordq::kube {

class WriteFence {
 public:
  using Clock = std::chrono::steady_clock;

  // `now` is the monotonic clock (tests pass their own).
  explicit WriteFence(std::function<Clock::time_point()> now = Clock::now);

  // Writes of the current reign may leave until `deadline` (exclusive): a renewal.
  void open_until(Clock::time_point deadline);
  // Writes of the current reign may leave until close(): --leader-elect=false.
  void open_indefinitely();
  // The current reign ends: its passes admit nothing from now on, whatever opens later.
  void close();

  Clock::time_point now() const { return now_(); }  // the fence's clock
  uint64_t reign() const;
  Clock::time_point deadline() const;  // time_point::min() when closed
  // Whether a write of `reign` may leave now; the error says why not.
  Status admits(uint64_t reign) const;

 private:
  std::function<Clock::time_point()> now_;
  mutable std::mutex mutex_;
  uint64_t reign_ = 1;
  Clock::time_point deadline_ = Clock::time_point::min();
};

// A writer's permission to send: the fence and the reign the writer belongs to. An empty pass
// (no fence) admits everything: followers' reads, tools, tests.
struct FencePass {
  const WriteFence* fence = nullptr;
  uint64_t reign = 0;

  static FencePass of_current_reign(const WriteFence* fence) { return {fence, fence ? fence->reign() : 0}; }
  Status admits() const;
  bool closed() const { return !admits().ok(); }
};

}  // namespace koordq::kube
