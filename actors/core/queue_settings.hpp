// What a Queue's spec and annotations configure (behaviour.md §2.3, §6, §11, §14.1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "schema/queue.hpp"

namespace koordq::actors {

enum class QueuePolicy { kPriority, kBlock, kUnsupported };

struct QueueSettings {
  QueuePolicy policy = QueuePolicy::kPriority;
  std::string policy_text;  // spec.queuePolicy as written
  int64_t max_depth = -1;   // -1: unlimited
  bool wait_for_pods_running = false;
  bool preemption_enabled = false;  // needs wait-for-pods-running too
  int64_t refresh_interval_nanos = 15'000'000'000;
  std::optional<std::string> invalid_refresh_interval;  // the annotation value that did not parse
  bool show_queue_items = true;

  bool operator==(const QueueSettings&) const = default;
};

QueueSettings settings_of(const schema::Queue& queue);

}  // namespace koordq::actors
