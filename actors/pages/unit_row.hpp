// One QueueUnit as the read pages show it (design.md §4, read side): the fields the visibility,
// debug and metrics answers print, copied out of the state so that a page outlives the fold.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "actors/core/order_key.hpp"
#include "actors/core/scheduler.hpp"
#include "schema/resource_list.hpp"

namespace koordq::actors::pages {

struct UnitRow {
  std::string key;  // "<namespace>/<name>"
  OrderKey order;
  std::string namespace_;
  std::string name;
  std::optional<int64_t> creation_timestamp;
  std::string quota;  // the quota label, which is also the queue name (behaviour.md §4)
  int64_t priority = 0;
  schema::ResourceList request;
  schema::ResourceList resource;
  Phase phase = Phase::kEnqueued;
  int64_t pods_running = 0;
  int64_t pods_pending = 0;
  bool waiting = false;
  bool assumed = false;
  bool holds = false;
  bool active = false;  // waiting and out of backoff at the page's time
  int64_t attempts = 0;
  int64_t failures = 0;
  std::optional<int64_t> backoff_until;
  std::optional<int64_t> last_allocate_time;
  bool reclaim_requested = false;

  bool operator==(const UnitRow&) const = default;
};

UnitRow unit_row(const Scheduler& s, const UnitState& u);

}  // namespace koordq::actors::pages
