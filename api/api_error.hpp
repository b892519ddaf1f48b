// An API answer that is not a success, before it is worded for its API: a Kubernetes Status on
// the visibility API (behaviour.md §16.7), {"error": …} on the debug API (§17.1).
#pragma once

#include <string>

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

}  // namespace koordq::api
