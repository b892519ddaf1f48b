#include "kube/simulator/sim_random.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "base/uuid.hpp"

namespace koordq::kube::sim {
namespace {

constexpr uint64_t kLn2Q32 = 2977044472;  // round(ln 2 × 2^32)
constexpr std::string_view kSuffixAlphabet = "bcdfghjklmnpqrstvwxz2456789";

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

uint64_t negative_log_q32(uint64_t x) {
  const uint64_t v = (x >> 1) + 1;  // in [1, 2^63]
  const int k = 63 - __builtin_clzll(v);
  // y = v / 2^k in [1, 2) with 62 fractional bits; its binary logarithm bit by bit by squaring.
  uint64_t y = k <= 62 ? v << (62 - k) : v >> 1;
  uint64_t fraction = 0;
  for (int bit = 31; bit >= 0; --bit) {
    y = static_cast<uint64_t>((static_cast<unsigned __int128>(y) * y) >> 62);
    if (y >= (uint64_t{1} << 63)) {
      y >>= 1;
      fraction |= uint64_t{1} << bit;
    }
  }
  const uint64_t negative_log2 = (static_cast<uint64_t>(63 - k) << 32) - fraction;
  return static_cast<uint64_t>((static_cast<unsigned __int128>(negative_log2) * kLn2Q32) >> 32);
}

uint64_t mix_seed(uint64_t seed, uint64_t a, uint64_t b) {
  return splitmix64(splitmix64(seed ^ a) ^ b);
}

int64_t SimRandom::uniform(int64_t lo, int64_t hi) {
  if (hi <= lo) return lo;
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  if (span == 0) return static_cast<int64_t>(next());
  // Draws below 2^64 mod span would favour small results.
  const uint64_t threshold = (0 - span) % span;
  uint64_t r = next();
  while (r < threshold) r = next();
  return static_cast<int64_t>(static_cast<uint64_t>(lo) + r % span);
}

bool SimRandom::chance(int64_t ppm) {
  if (ppm <= 0) return false;
  if (ppm >= kMillion) return true;
  return uniform(0, kMillion - 1) < ppm;
}

int64_t SimRandom::exponential(int64_t mean) {
  if (mean <= 0) return 0;
  const unsigned __int128 v = (static_cast<unsigned __int128>(mean) * negative_log_q32(next())) >> 32;
  constexpr auto kMax = static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max());
  return static_cast<int64_t>(v > kMax ? kMax : v);
}

int64_t SimRandom::duration(const DurationDistribution& d) {
  switch (d.shape) {
    case DurationDistribution::Shape::kFixed:
      return d.min_nanos;
    case DurationDistribution::Shape::kUniform:
      return uniform(d.min_nanos, d.max_nanos);
    case DurationDistribution::Shape::kExponential: {
      int64_t v = std::max(exponential(d.mean_nanos), d.min_nanos);
      if (d.max_nanos > 0) v = std::min(v, d.max_nanos);
      return v;
    }
  }
  return d.min_nanos;
}

std::string SimRandom::uuid() {
  std::array<uint8_t, 16> bytes{};
  for (int half = 0; half < 2; ++half) {
    const uint64_t r = next();
    for (int i = 0; i < 8; ++i) bytes[half * 8 + i] = static_cast<uint8_t>(r >> (56 - 8 * i));
  }
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | 0x40);
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);
  return base::uuid_text(bytes);
}

std::string SimRandom::name_suffix(int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += kSuffixAlphabet[static_cast<size_t>(uniform(0, static_cast<int64_t>(kSuffixAlphabet.size()) - 1))];
  }
  return out;
}

}  // namespace koordq::kube::sim
