// Fixed periods of Koord-Queue's queueing behaviour (behaviour.md), shared by the fold (apply) and
// the deadline computation (decide), so both wake at the same instants.
#pragma once

#include <cstdint>

#include "base/go_duration.hpp"

namespace koordq::actors {

// The Priority policy's cursor reset and the Block policy's idle release (§7).
inline constexpr int64_t kThreeMinutes = 180 * base::kSecond;
// The metric series of a namespace without QueueUnits are removed after this (§15.4).
inline constexpr int64_t kFiveMinutes = 300 * base::kSecond;

}  // namespace koordq::actors
