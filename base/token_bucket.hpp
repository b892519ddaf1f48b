// A token bucket: holds up to `burst` tokens, gains one every `nanos_per_token`, starts full.
// Pure: the caller passes the time (nanoseconds on one clock that never goes back) and does any
// waiting. The API client's request rate (kube/client/rate_limiter.hpp) and the event
// correlator's per-object spam filter (kube/events/event_correlator.hpp) are both one.
#pragma once

#include <algorithm>
#include <cstdint>

namespace koordq::base {

class TokenBucket {
 public:
  TokenBucket(double burst, double nanos_per_token, int64_t now)
      : burst_(burst), nanos_per_token_(nanos_per_token), tokens_(burst), last_(now) {}

  // Takes a token when one is there.
  bool try_take(int64_t now) {
    refill(now);
    if (tokens_ < 1) return false;
    tokens_ -= 1;
    return true;
  }

  // Takes a token now, on credit when none is there, and returns the nanoseconds until the one
  // taken exists (0 when it was there): callers that wait queue up, each behind the others' debt.
  int64_t reserve(int64_t now) {
    refill(now);
    tokens_ -= 1;
    if (tokens_ >= 0) return 0;
    return static_cast<int64_t>(-tokens_ * nanos_per_token_);
  }

 private:
  void refill(int64_t now) {
    if (now <= last_) return;
    tokens_ = std::min(burst_, tokens_ + static_cast<double>(now - last_) / nanos_per_token_);
    last_ = now;
  }

  double burst_;
  double nanos_per_token_;
  double tokens_;
  int64_t last_;
};

}  // namespace koordq::base
