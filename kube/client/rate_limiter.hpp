// Client-side rate limit of API requests (behaviour.md §21 `--qps` / `--burst`): a token bucket
// that holds up to `burst` tokens and refills at `qps` per second, like client-go's
// flowcontrol.NewTokenBucketRateLimiter. Pure: the caller passes the time and does the waiting.
#pragma once

#include <chrono>
#include <optional>

#include "base/token_bucket.hpp"

namespace koordq::kube {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  // qps <= 0: no limit. burst < 1 counts as 1. The bucket starts full.
  RateLimiter(double qps, int burst, Clock::time_point now);

  // Takes a token for a request that is about to be sent and returns how long it must wait first
  // (zero when a token was there). Waiting requests queue up: each takes the next token to come.
  Clock::duration reserve(Clock::time_point now);

 private:
  std::optional<base::TokenBucket> bucket_;  // none: no limit
};

}  // namespace koordq::kube
