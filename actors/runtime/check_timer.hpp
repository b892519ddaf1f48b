// Times each quota check of a queue's attempt for job_scheduling_algorithm_latency (§15.2): one
// observation per attempt, wherever the queue's turn runs (its actor, or the calling thread).
#pragma once

#include <chrono>
#include <functional>
#include <string>

#include "actors/core/scheduler.hpp"

namespace koordq::actors::runtime {

// Called with the queue name and the wall-clock seconds one quota check of an attempt took.
using LatencyObserver = std::function<void(const std::string& queue, double seconds)>;

class CheckTimer : public QuotaCheckObserver {
 public:
  CheckTimer(const std::string& queue, const LatencyObserver& observe) : queue_(queue), observe_(observe) {}
  void before_check() override { start_ = std::chrono::steady_clock::now(); }
  void after_check() override {
    observe_(queue_, std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count());
  }

 private:
  const std::string& queue_;
  const LatencyObserver& observe_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace koordq::actors::runtime
