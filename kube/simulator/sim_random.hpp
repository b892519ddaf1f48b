// The simulator's one source of randomness: std::mt19937_64 (whose output the standard fixes),
// turned into values with integer arithmetic only, so a seed gives the same run on every machine
// and standard library. Callers draw in a fixed order.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "kube/simulator/scenario.hpp"

namespace koordq::kube::sim {

class SimRandom {
 public:
  explicit SimRandom(uint64_t seed) : engine_(seed) {}

  uint64_t next() { return engine_(); }
  // Uniform in [lo, hi]; lo when hi <= lo.
  int64_t uniform(int64_t lo, int64_t hi);
  // True with probability ppm / 10^6.
  bool chance(int64_t ppm);
  // Exponentially distributed with the given mean (≥ 0), rounded down.
  int64_t exponential(int64_t mean);
  int64_t duration(const DurationDistribution& d);
  // A random (version 4) UUID, as Kubernetes assigns to objects.
  std::string uuid();
  // `n` characters of the alphabet Kubernetes uses for generateName suffixes.
  std::string name_suffix(int n);

 private:
  std::mt19937_64 engine_;
};

// -ln(u) for u = (x >> 1) + 1 over 2^63, in fixed point with 32 fractional bits.
uint64_t negative_log_q32(uint64_t x);

// A new seed from a seed and further values (splitmix64 steps), e.g. for a restart.
uint64_t mix_seed(uint64_t seed, uint64_t a, uint64_t b);

}  // namespace koordq::kube::sim
