// Go durations (behaviour.md §0): the syntax of Go's time.ParseDuration, evaluated exactly to
// integer nanoseconds, and Go's Duration.String() rendering.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "base/time_units.hpp"

namespace koordq::base {

// An optional sign, then one or more `<decimal><unit>` (`300ms`, `-1.5h`, `2h45m`), or the bare
// token `0`. Units: ns, us, µs (U+00B5 or U+03BC), ms, s, m, h. A fraction is truncated toward zero
// at the nanosecond; a value outside int64 nanoseconds is an error.
Result<int64_t> parse_go_duration(std::string_view text);

// As parse_go_duration, with the additional unit `d` (24 h) of retention ages (behaviour.md §21).
Result<int64_t> parse_go_duration_with_days(std::string_view text);

// Go's Duration.String(): `0s`, `500ns`, `1.5µs`, `300ms`, `1.5s`, `2h45m0s`, `-1m30s`.
std::string format_go_duration(int64_t nanos);

}  // namespace koordq::base
