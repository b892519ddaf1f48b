// The big journal the read benchmarks share, built once per run: real records (the ≈300-byte
// watch records, numbered, timed 100 µs apart and chained as the writer does) ingested in large
// WriteBatches through the journal's own store, flushed, with compactions settled.
#pragma once

#include <cstdint>
#include <memory>

#include "journal/journal.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::bench {

struct BigJournal {
  testing::TempDir dir;
  std::unique_ptr<journal::Journal> journal;
  uint64_t records = 0;
  int64_t first_time = 0;
  int64_t last_time = 0;
};

// KOORDQ_BENCH_BIG_RECORDS records (default 10 000 000).
BigJournal& big_journal();

}  // namespace koordq::bench
