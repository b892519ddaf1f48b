// `koordq at WHEN unit NS/NAME` (behaviour.md §24.1): the unit's item of the QueueUnitsSummary
// shape (§16.5), rendered by the visibility API's own code, followed by the key `status` with the
// unit's full status (§2.2) under the field names the API server uses.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "actors/core/scheduler.hpp"

namespace koordq::api {

// Compact JSON without a trailing newline; std::nullopt when no unit has that name at the state.
std::optional<std::string> render_unit(const actors::Scheduler& s, uint64_t revision, const std::string& namespace_name,
                                       const std::string& name);

}  // namespace koordq::api
