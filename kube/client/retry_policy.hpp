// When a failed API request is sent again, and after how long: only requests that are safe to
// repeat (GET, PUT, DELETE, and a PATCH whose body carries a metadata.resourceVersion
// precondition), after an HTTP 429 or 5xx answer or a connection error, after the answer's
// Retry-After (capped) or else a jittered exponential backoff. Pure.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace koordq::kube {

enum class Verb { kGet, kPost, kPut, kPatch, kDelete };

// "GET", "POST", "PUT", "PATCH", "DELETE"
const char* verb_name(Verb verb);

struct RetryPolicy {
  int max_attempts = 5;  // the first attempt included
  std::chrono::milliseconds base_delay{200};
  std::chrono::milliseconds max_delay{10'000};
  std::chrono::seconds max_retry_after{60};
};

// Whether sending the request twice does no harm.
bool is_repeatable(Verb verb, bool has_precondition);

// HTTP 429 (Too Many Requests) and every 5xx.
bool is_retryable_status(int status);

// Retry-After in its delta-seconds form (the form the API server sends); std::nullopt otherwise.
std::optional<std::chrono::seconds> parse_retry_after(std::string_view value);

// What a finished attempt gave: an HTTP status, or none for a connection error or timeout.
struct AttemptOutcome {
  std::optional<int> status;
  std::optional<std::chrono::seconds> retry_after;
};

// The jittered exponential backoff after the `failures`-th failure in a row (from 1): `jitter` in
// [0, 1) spreads it over [d/2, d) with d = min(max_delay, base_delay * 2^(failures-1)).
std::chrono::milliseconds backoff_delay(int failures, std::chrono::milliseconds base_delay,
                                        std::chrono::milliseconds max_delay, double jitter);

// The delay before attempt `attempt + 1` after attempt `attempt` (from 1) ended in `outcome`, or
// std::nullopt when the outcome is final; a backoff_delay unless the answer says how long to wait.
std::optional<std::chrono::milliseconds> retry_delay(const RetryPolicy& policy, Verb verb, bool has_precondition,
                                                     int attempt, const AttemptOutcome& outcome, double jitter);

}  // namespace koordq::kube
