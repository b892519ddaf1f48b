// The settings the decision logic reads (behaviour.md §21); journaled in the `config` record so a
// replay decides with the settings the live run had.
#pragma once

#include <cstdint>
#include <string>

namespace koordq::actors {

// Bumped whenever the same records would lead to different decisions.
inline constexpr uint32_t kDecisionLogicVersion = 6;

struct DecisionConfig {
  int64_t oversell_rate_ppm = 1'000'000;          // --oversellrate
  int64_t initial_backoff_nanos = 1'000'000'000;  // --pod-initial-backoff-seconds
  int64_t max_backoff_nanos = 20'000'000'000;     // --pod-max-backoff-seconds
  int64_t schedule_suspend_nanos = 10'000'000;    // --schedule-suspend-time-ms
  int64_t reclaim_protect_nanos = 0;              // --default-reclaim-protect-time
  std::string queue_namespace = "koord-queue";    // --queue-namespace
  int64_t queue_items_max = 500;                  // --queue-items-max

  bool operator==(const DecisionConfig&) const = default;
};

}  // namespace koordq::actors
