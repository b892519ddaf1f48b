// Latency percentiles of a benchmark's per-operation samples as Google Benchmark counters
// (p50_ms, p90_ms, p99_ms, max_ms).
#pragma once

#include <algorithm>
#include <vector>

#include <benchmark/benchmark.h>

namespace koordq::bench {

inline void report_percentiles(benchmark::State& state, std::vector<double> millis) {
  if (millis.empty()) return;
  std::sort(millis.begin(), millis.end());
  const auto at = [&](double q) { return millis[std::min(millis.size() - 1, static_cast<size_t>(q * millis.size()))]; };
  state.counters["p50_ms"] = at(0.50);
  state.counters["p90_ms"] = at(0.90);
  state.counters["p99_ms"] = at(0.99);
  state.counters["max_ms"] = millis.back();
}

}  // namespace koordq::bench
