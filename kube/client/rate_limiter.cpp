#include "kube/client/rate_limiter.hpp"

#include <algorithm>

namespace koordq::kube {
namespace {

int64_t nanos(RateLimiter::Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

RateLimiter::RateLimiter(double qps, int burst, Clock::time_point now) {
  if (qps > 0) bucket_.emplace(std::max(burst, 1), 1e9 / qps, nanos(now));
}

RateLimiter::Clock::duration RateLimiter::reserve(Clock::time_point now) {
  if (!bucket_) return Clock::duration::zero();
  return std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(bucket_->reserve(nanos(now))));
}

}  // namespace koordq::kube
