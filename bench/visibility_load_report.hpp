// What the visibility load client prints after a run: latency percentiles, rates, errors, as text
// or as one JSON object.
#pragma once

#include <cstdint>

#include "bench/visibility_load_run.hpp"

namespace koordq::bench::visibility_load {

struct Summary {
  uint64_t requests = 0;
  double rps = 0, bytes_per_s = 0;
  double p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;  // milliseconds
};

// Sorts the latencies of `stats` and reads the percentiles off them; rates over `seconds`.
Summary summarize(Stats& stats, double seconds);
void print_text(const Options& o, const LoadRun& run, const Stats& stats, const Summary& s);
void print_json(const Options& o, const LoadRun& run, const Stats& stats, const Summary& s);

}  // namespace koordq::bench::visibility_load
