// The queue order of behaviour.md §6.1: higher priority first, then older creationTimestamp, then
// the bytewise smaller "<namespace>/<name>" compared as one string. A strict total order.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>

namespace koordq::actors {

struct OrderKey {
  int32_t priority = 0;
  int64_t creation = 0;   // ns since the epoch
  std::string full_name;  // "<namespace>/<name>"

  friend bool operator<(const OrderKey& a, const OrderKey& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (a.creation != b.creation) return a.creation < b.creation;
    return a.full_name < b.full_name;
  }
  friend bool operator==(const OrderKey&, const OrderKey&) = default;
};

}  // namespace koordq::actors
