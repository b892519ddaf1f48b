// An API answer that is not a success, before it is worded for its API: a Kubernetes Status on
// the visibility API (behaviour.md §16.7), {"error": …} on the debug API (§17.1).
#pragma once

#include <string>
#include <string_view>

namespace koordq::api {

struct ApiError {
  int code = 500;
  std::string reason;  // Status reason: BadRequest, NotFound, Expired, TooManyRequests, …
  std::string message;
  bool retry_after = false;  // 429: Retry-After: 1
};

inline ApiError bad_request(std::string message) {
  return {400, "BadRequest", std::move(message), false};
}

// `invalid value "<v>" for parameter <name>: <rule>` (behaviour.md §16.4, §17.5).
inline ApiError invalid_parameter(std::string_view name, std::string_view value, std::string_view rule) {
  return bad_request("invalid value \"" + std::string(value) + "\" for parameter " + std::string(name) + ": " +
                     std::string(rule));
}

}  // namespace koordq::api
