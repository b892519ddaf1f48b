// The query parameters every read endpoint shares (behaviour.md §16.4, §18): the point in time
// (`asOf` / `revision`), paging (`offset`, `limit`) and the unit filters (`phase`, `queue`), with
// the exact 400 messages. Unknown parameters are ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/api_error.hpp"
#include "api/query_params.hpp"
#include "api/visibility_render.hpp"

namespace koordq::api {

struct PointInTime {
  enum class Kind { kLatest, kRevision, kTime };
  Kind kind = Kind::kLatest;
  uint64_t revision = 0;
  int64_t time = 0;  // ns since the epoch
  std::string text;  // asOf as given

  bool time_travel() const { return kind != Kind::kLatest; }
};

// `now` is the wall clock (the simulator's virtual time under --simulate-clock=virtual): asOf
// may not lie after it.
std::optional<ApiError> parse_point_in_time(const RequestTarget& target, int64_t now, PointInTime& out);
std::optional<ApiError> parse_page(const RequestTarget& target, PageParams& out);
std::optional<ApiError> parse_unit_filter(const RequestTarget& target, UnitFilter& out);

// A decimal integer without sign, leading '+' or spaces, that fits 63 bits.
std::optional<int64_t> parse_count(std::string_view text);

}  // namespace koordq::api
