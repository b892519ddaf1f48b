// Decimal factors held as integer parts per million, so that no binary floating point enters the
// quota check (behaviour.md §8.2): `1` → 1000000, `1.2` → 1200000, `0.000001` → 1.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::base {

inline constexpr int64_t kPartsPerMillion = 1'000'000;

// `<digits>[.<digits>]` (or `.<digits>`) with at most 6 fractional digits; no sign, no exponent.
// The value times 10^6 must fit int64.
Result<int64_t> parse_decimal_ppm(std::string_view text);

// The shortest decimal: 1000000 → `1`, 1200000 → `1.2`, 1 → `0.000001`.
std::string format_decimal_ppm(int64_t ppm);

}  // namespace koordq::base
