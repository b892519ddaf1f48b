// The time stamped on journal records (design.md §2): a monotonic clock anchored to the wall
// clock at start and slewed toward it by at most 1 ms per second, so an NTP step neither
// freezes timers nor fires them all at once. Readings never decrease.
// This is I/O-side code; decision logic never reads it (it sees only record times).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>

namespace koordq::journal {

class RecordClock {
 public:
  using Source = std::function<int64_t()>;  // nanoseconds

  // Defaults: CLOCK_REALTIME and CLOCK_MONOTONIC.
  RecordClock();
  RecordClock(Source wall, Source monotonic);

  int64_t now();

  // Steps larger than one second seen between wall and monotonic time. No caller logs or exports
  // them yet; tests/unit/journal_basics_test.cpp reads them.
  uint64_t large_steps() const { return large_steps_.load(std::memory_order_relaxed); }
  // The last step size seen.
  int64_t last_step_nanos() const { return last_step_.load(std::memory_order_relaxed); }

 private:
  Source wall_;
  Source monotonic_;
  std::mutex mu_;
  int64_t offset_ = 0;          // record time = monotonic + offset
  int64_t last_monotonic_ = 0;  // of the previous reading
  int64_t last_reading_ = 0;
  bool stepped_ = false;  // inside a step larger than 1 s (counted once per step)
  std::atomic<uint64_t> large_steps_{0};
  std::atomic<int64_t> last_step_{0};
};

}  // namespace koordq::journal
