// The decision engine without its actors (EngineOptions::on_calling_thread): one Scheduler folded
// and decided on the caller's thread, tree by tree in tree-name order and queue by queue within a
// tree, then the unmapped units' — the order the router concatenates its coordinators' answers in,
// so the rounds are the actors' rounds (design.md §3). A mutex lets other threads read between
// the caller's steps.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/runtime/check_timer.hpp"
#include "actors/runtime/decision_log.hpp"
#include "actors/runtime/messages.hpp"
#include "base/result.hpp"
#include "journal/stored_record.hpp"

namespace koordq::actors::runtime {

class CallingThreadRounds {
 public:
  CallingThreadRounds(Scheduler initial, uint64_t applied_seq, LatencyObserver observe_latency);

  ApplyReport apply(const std::vector<journal::StoredRecord>& records);
  Result<std::vector<Decision>> decide();
  std::optional<int64_t> next_deadline();
  void read(const std::function<void(const Scheduler&, uint64_t)>& read);
  std::optional<QuotaView> quota(const std::string& name);

 private:
  std::mutex mu_;
  Scheduler scheduler_;
  uint64_t applied_seq_;
  LatencyObserver observe_latency_;
  LoggedQueueSettings queue_settings_;  // as last logged (decision_log.hpp)
};

}  // namespace koordq::actors::runtime
