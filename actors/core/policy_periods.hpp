// Fixed periods of Koord-Queue's queueing behaviour (behaviour.md), shared by the fold (apply) and
// the deadline computation (decide), so both wake at the same instants.
#pragma once

#include <cstdint>

#include "base/time_units.hpp"

namespace koordq::actors {

// The Priority policy's cursor reset and the Block policy's idle release (§7).
inline constexpr int64_t kThreeMinutes = 180 * base::kSecond;
// The metric series of a namespace without QueueUnits are removed after this (§15.4).
inline constexpr int64_t kFiveMinutes = 300 * base::kSecond;
// A labelled unit without a Queue is reported after this grace (§4).
inline constexpr int64_t kQueueNotFoundGrace = 10 * base::kSecond;
// The Block policy retries its blocked head after this, unless capacity changed first (§6.4).
inline constexpr int64_t kBlockRetryWait = 5 * base::kSecond;

}  // namespace koordq::actors
