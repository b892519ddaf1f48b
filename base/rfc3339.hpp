// RFC 3339 times (behaviour.md §0): parsing with fraction and offset, and the two renderings
// koordq uses: whole seconds inside Kubernetes objects, milliseconds in its own output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::base {

// Nanoseconds since the Unix epoch. Accepts `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`
// (`T`/`Z` in either case, up to 9 fraction digits); the result must fit 1678..2262.
Result<int64_t> parse_rfc3339(std::string_view text);

// `2026-04-20T08:00:00Z`: truncates to whole seconds (toward negative infinity).
std::string format_rfc3339_seconds(int64_t unix_nanos);

// `2026-04-20T08:00:01.250Z`: truncates to milliseconds.
std::string format_rfc3339_millis(int64_t unix_nanos);

}  // namespace koordq::base
