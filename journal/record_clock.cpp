#include "journal/record_clock.hpp"

#include <algorithm>
#include <ctime>

#include "base/time_units.hpp"

namespace koordq::journal {
namespace {

int64_t read_clock(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

using base::kSecond;
constexpr int64_t kSlewPerSecond = 1'000'000;  // 1 ms per second

}  // namespace

RecordClock::RecordClock()
    : RecordClock([] { return read_clock(CLOCK_REALTIME); }, [] { return read_clock(CLOCK_MONOTONIC); }) {}

RecordClock::RecordClock(Source wall, Source monotonic) : wall_(std::move(wall)), monotonic_(std::move(monotonic)) {
  last_monotonic_ = monotonic_();
  offset_ = wall_() - last_monotonic_;
  last_reading_ = last_monotonic_ + offset_;
}

int64_t RecordClock::now() {
  std::lock_guard lock(mu_);
  const int64_t mono = monotonic_();
  const int64_t wall = wall_();
  const int64_t elapsed = std::max<int64_t>(mono - last_monotonic_, 0);
  last_monotonic_ = mono;

  const int64_t error = wall - (mono + offset_);
  if (error > kSecond || error < -kSecond) {
    if (!stepped_) {
      stepped_ = true;
      last_step_.store(error, std::memory_order_relaxed);
      large_steps_.fetch_add(1, std::memory_order_relaxed);
    }
  } else {
    stepped_ = false;
  }
  // Allowed correction: 1 ms per elapsed second (128-bit to avoid overflow on long gaps).
  const int64_t allowed = static_cast<int64_t>(static_cast<__int128>(elapsed) * kSlewPerSecond / kSecond);
  offset_ += std::clamp(error, -allowed, allowed);

  last_reading_ = std::max(last_reading_, mono + offset_);
  return last_reading_;
}

}  // namespace koordq::journal
