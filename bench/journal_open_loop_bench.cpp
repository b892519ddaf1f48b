// Durable appends at an offered rate (open loop): the journal against a pool of threads calling
// rocksdb::DB::Write with sync=true, both writing the same keys and stored values.
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <benchmark/benchmark.h>

#include "bench/journal_append.hpp"

namespace koordq::bench {
namespace {

using journal::AppendedRecord;

// Open loop: record k is due at start + k/rate whatever happened before; latency counts from
// the due time, so a stall delays every record behind it (no coordinated omission).
Phase journal_open_loop(Sides& s, double rate, int64_t measure_nanos) {
  const Window w = window_from_now(measure_nanos);
  const int64_t origin = now_nanos();
  std::vector<std::vector<Sample>> samples(1);
  std::atomic<int64_t> outstanding{0};
  std::vector<int64_t> lags;
  for (int64_t k = 0;; ++k) {
    const int64_t due = origin + static_cast<int64_t>(static_cast<double>(k) * 1e9 / rate);
    if (due >= w.end) break;
    auto body = small_watch_body(s.ids.fetch_add(1));
    std::this_thread::sleep_until(std::chrono::steady_clock::time_point(std::chrono::nanoseconds(due)));
    lags.push_back(now_nanos() - due);
    outstanding.fetch_add(1);
    s.journal.writer().append(std::move(body), [&, due](const Result<AppendedRecord>& r) {
      const int64_t done = now_nanos();
      if (!r.ok()) s.failed = true;
      samples[0].push_back({done, done - due});
      outstanding.fetch_sub(1, std::memory_order_release);
    });
  }
  while (outstanding.load(std::memory_order_acquire) > 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  Phase p = summarize(samples, w);
  p.pacer_lags = std::move(lags);
  return p;
}

// The raw side needs a thread per write in flight: a pacer queues due times for a pool.
Phase raw_open_loop(Sides& s, double rate, int64_t measure_nanos, int workers) {
  HeadCompanion companion(s.companion_head);
  const Window w = window_from_now(measure_nanos);
  const int64_t origin = now_nanos();
  std::mutex mu;
  std::condition_variable cv;
  std::deque<int64_t> due_times;
  bool paced = false;
  std::vector<std::vector<Sample>> samples(workers);
  std::vector<std::thread> threads;
  rocksdb::WriteOptions sync;
  sync.sync = true;
  for (int p = 0; p < workers; ++p) {
    threads.emplace_back([&, p] {
      for (;;) {
        int64_t due;
        {
          std::unique_lock lock(mu);
          cv.wait(lock, [&] { return paced || !due_times.empty(); });
          if (due_times.empty()) return;
          due = due_times.front();
          due_times.pop_front();
        }
        raw_write(s, sync);
        const int64_t done = now_nanos();
        samples[p].push_back({done, done - due});
      }
    });
  }
  for (int64_t k = 0;; ++k) {
    const int64_t due = origin + static_cast<int64_t>(static_cast<double>(k) * 1e9 / rate);
    if (due >= w.end) break;
    std::this_thread::sleep_until(std::chrono::steady_clock::time_point(std::chrono::nanoseconds(due)));
    std::lock_guard lock(mu);
    due_times.push_back(due);
    cv.notify_one();
  }
  {
    std::lock_guard lock(mu);
    paced = true;
  }
  cv.notify_all();
  for (auto& t : threads) t.join();
  return summarize(samples, w);
}

// Args: offered records per second; the writer's max_batch_delay in µs (default 1000); whether
// the raw side runs with a HeadCompanion. Short alternating rounds, so that both sides sample the
// same disk weather.
void BM_OpenLoopAppend(benchmark::State& state) {
  const double rate = static_cast<double>(state.range(0));
  journal::WriterOptions writer;
  writer.max_batch_delay_nanos = state.range(1) * 1000;
  constexpr int64_t kMeasure = 1'000'000'000;
  constexpr int kRawWorkers = 64;
  for (auto _ : state) {
    Fixture f(state.range(2) != 0, writer);
    Pooled journal_side, raw_side;
    const auto before = f.journal->writer().stats();
    for (int round = 0; round < 6; ++round) {
      auto run_journal = [&] { journal_side.add(journal_open_loop(*f.sides, rate, kMeasure)); };
      auto run_raw = [&] { raw_side.add(raw_open_loop(*f.sides, rate, kMeasure, kRawWorkers)); };
      f.quiesce();
      round % 2 == 0 ? run_journal() : run_raw();
      f.quiesce();
      round % 2 == 0 ? run_raw() : run_journal();
    }
    if (f.sides->failed) state.SkipWithError("a write failed");
    state.counters["records_per_group"] = group_size(before, f.journal->writer().stats());
    const auto sync = f.sync_times();
    state.counters["sync_mean_us"] = sync.mean_us;
    state.counters["sync_p50_us"] = sync.p50_us;
    state.counters["sync_p99_us"] = sync.p99_us;
    const auto lag = percentiles(journal_side.pacer_lags);
    state.counters["pacer_lag_p50_us"] = lag.p50_us;
    state.counters["pacer_lag_p99_us"] = lag.p99_us;
    report(state, "journal", journal_side, true);
    report(state, "raw", raw_side, true);
  }
}
BENCHMARK(BM_OpenLoopAppend)
    ->ArgNames({"offered", "delay_us", "companion"})
    ->Args({10'000, 1000, 0})
    ->Args({10'000, 0, 0})
    ->Args({10'000, 1000, 1})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace
}  // namespace koordq::bench
