// Durations as integer nanoseconds, the unit of every time koordq keeps (journal records, the
// decision state, the flags): one definition of each unit for every folder.
#pragma once

#include <cstdint>

namespace koordq::base {

inline constexpr int64_t kNanosecond = 1;
inline constexpr int64_t kMicrosecond = 1'000;
inline constexpr int64_t kMillisecond = 1'000'000;
inline constexpr int64_t kSecond = 1'000'000'000;
inline constexpr int64_t kMinute = 60 * kSecond;
inline constexpr int64_t kHour = 60 * kMinute;
inline constexpr int64_t kDay = 24 * kHour;

}  // namespace koordq::base
