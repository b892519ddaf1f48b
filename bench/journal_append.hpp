// What the append benchmarks share: the journal and the raw database side by side (Fixture),
// samples taken inside a measured window, and the counters they report.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <benchmark/benchmark.h>
#include <rocksdb/options.h>

#include "bench/journal_bench.hpp"
#include "journal/journal.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::bench {

struct Sample {
  int64_t done;
  int64_t latency;
};

// Producers start now; samples count from `start`, after a warm-up, and producers stop at `end`.
struct Window {
  int64_t start;
  int64_t end;
};
Window window_from_now(int64_t measure_nanos);

struct Phase {
  double records_per_second = 0;
  std::vector<int64_t> latencies;
  std::vector<int64_t> pacer_lags;  // open loop: how late the pacer appended
};
Phase summarize(const std::vector<std::vector<Sample>>& per_producer, const Window& w);

struct Sides {
  journal::Journal& journal;
  RawDb& raw;
  std::vector<std::string> values;       // stored values of small_watch_body, for the raw side
  std::filesystem::path companion_head;  // non-empty: raw phases run with a HeadCompanion
  std::atomic<uint64_t> ids{0};
  std::atomic<uint64_t> raw_seq{0};
  std::atomic<bool> failed{false};
};

// Rewrites a HEAD file back to back (create, write, fdatasync, rename) as the journal's HEAD thread
// does under load. On the VM these figures come from, a lone fdatasync takes ≈4 ms while one
// issued beside another often returns in ≈0.3 ms (BM_SyncFloor), so the journal's own HEAD thread
// speeds up its WAL syncs; giving the raw sides the same companion takes that quirk out of the
// ratios.
class HeadCompanion {
 public:
  explicit HeadCompanion(const std::filesystem::path& head);
  ~HeadCompanion();

 private:
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

// One record as the raw side writes it: the stored value under `log`, the index entry under `time`.
void raw_write(Sides& s, const rocksdb::WriteOptions& sync);

struct Fixture {
  std::mutex sync_mu;  // before `journal`: its writer reports here until it stops
  std::vector<int64_t> sync_nanos;
  testing::TempDir dir;
  std::unique_ptr<journal::Journal> journal;
  std::unique_ptr<RawDb> raw;
  std::unique_ptr<Sides> sides;

  explicit Fixture(bool companion, journal::WriterOptions writer = {});
  // Neither side starts while the other's flushes or compactions still run.
  void quiesce();
  // The journal's WriteBatch + sync time per group.
  Percentiles sync_times();
};

struct Pooled {
  std::vector<double> rates;
  std::vector<int64_t> latencies;
  std::vector<int64_t> pacer_lags;
  void add(Phase p);
};

// <side>_rec/s (median over rounds) and latency percentiles over all rounds' samples.
void report(benchmark::State& state, const char* side, Pooled& pooled, bool tail);
double group_size(const journal::WriterStats& before, const journal::WriterStats& after);

}  // namespace koordq::bench
