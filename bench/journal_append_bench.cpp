// Durable appends from closed-loop producers: the journal's group commit against the same number
// of producers calling rocksdb::DB::Write with sync=true (RocksDB's own write group), and against
// one thread writing synced batches of `producers` records (the ceiling of any group commit).
// Every side writes the same keys and stored values to `log` and `time`; the sides take turns
// over a few rounds so that a noisy neighbour hits all of them.
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

#include <benchmark/benchmark.h>
#include <rocksdb/write_batch.h>

#include "bench/journal_append.hpp"
#include "journal/keys.hpp"

namespace koordq::bench {
namespace {

using journal::AppendedRecord;

// Each producer thread appends one record and waits for its acknowledgement.
Phase journal_threads(Sides& s, int producers, int64_t measure_nanos) {
  const Window w = window_from_now(measure_nanos);
  std::vector<std::vector<Sample>> samples(producers);
  std::vector<std::thread> threads;
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      std::mutex mu;
      std::condition_variable cv;
      bool acked = false;
      while (now_nanos() < w.end) {
        auto body = small_watch_body(s.ids.fetch_add(1));
        const int64_t start = now_nanos();
        acked = false;
        s.journal.writer().append(std::move(body), [&](const Result<AppendedRecord>& r) {
          if (!r.ok()) s.failed = true;
          std::lock_guard lock(mu);
          acked = true;
          cv.notify_one();
        });
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return acked; });
        const int64_t done = now_nanos();
        samples[p].push_back({done, done - start});
      }
    });
  }
  for (auto& t : threads) t.join();
  return summarize(samples, w);
}

// One driver keeps `in_flight` appends outstanding; each acknowledgement lets it append the next.
// Latency is taken in the acknowledgement, where an actor would act on it.
Phase journal_async(Sides& s, int in_flight, int64_t measure_nanos) {
  const Window w = window_from_now(measure_nanos);
  std::vector<std::vector<Sample>> samples(1);  // appended to by the writer thread only
  std::mutex mu;
  std::condition_variable cv;
  int outstanding = 0;
  while (now_nanos() < w.end) {
    {
      std::unique_lock lock(mu);
      cv.wait(lock, [&] { return outstanding < in_flight; });
      ++outstanding;
    }
    auto body = small_watch_body(s.ids.fetch_add(1));
    const int64_t start = now_nanos();
    s.journal.writer().append(std::move(body), [&, start](const Result<AppendedRecord>& r) {
      const int64_t done = now_nanos();
      if (!r.ok()) s.failed = true;
      samples[0].push_back({done, done - start});
      std::lock_guard lock(mu);
      --outstanding;
      // The driver only waits with `in_flight` outstanding, or for the last one at the end.
      if (outstanding == in_flight - 1 || outstanding == 0) cv.notify_one();
    });
  }
  std::unique_lock lock(mu);
  cv.wait(lock, [&] { return outstanding == 0; });
  return summarize(samples, w);
}

Phase raw_threads(Sides& s, int producers, int64_t measure_nanos) {
  HeadCompanion companion(s.companion_head);
  const Window w = window_from_now(measure_nanos);
  std::vector<std::vector<Sample>> samples(producers);
  std::vector<std::thread> threads;
  rocksdb::WriteOptions sync;
  sync.sync = true;
  for (int p = 0; p < producers; ++p) {
    threads.emplace_back([&, p] {
      while (now_nanos() < w.end) {
        const int64_t start = now_nanos();
        raw_write(s, sync);
        const int64_t done = now_nanos();
        samples[p].push_back({done, done - start});
      }
    });
  }
  for (auto& t : threads) t.join();
  return summarize(samples, w);
}

// The ceiling for a group commit: one thread writing synced batches of `batch_records` records.
Phase raw_batches(Sides& s, int batch_records, int64_t measure_nanos) {
  HeadCompanion companion(s.companion_head);
  const Window w = window_from_now(measure_nanos);
  std::vector<std::vector<Sample>> samples(1);
  rocksdb::WriteOptions sync;
  sync.sync = true;
  while (now_nanos() < w.end) {
    const int64_t start = now_nanos();
    rocksdb::WriteBatch batch;
    for (int i = 0; i < batch_records; ++i) {
      const uint64_t seq = s.raw_seq.fetch_add(1) + 1;
      batch.Put(s.raw.log(), journal::seq_key(seq), s.values[seq % s.values.size()]);
      batch.Put(s.raw.time(), journal::time_key(static_cast<int64_t>(seq) * 1000, seq), rocksdb::Slice());
    }
    if (!s.raw.db().Write(sync, &batch).ok()) s.failed = true;
    const int64_t done = now_nanos();
    samples[0].insert(samples[0].end(), batch_records, Sample{done, done - start});
  }
  return summarize(samples, w);
}

// Args: producers; whether the journal side uses the async driver instead of threads; whether
// the raw sides run with a HeadCompanion.
void BM_DurableAppend(benchmark::State& state) {
  const int producers = static_cast<int>(state.range(0));
  const bool async = state.range(1) != 0;
  constexpr int64_t kMeasure = 1'000'000'000;
  for (auto _ : state) {
    Fixture f(state.range(2) != 0);
    Pooled journal_side, raw_side, batch_side;
    const std::function<void()> sides[] = {
        [&] {
          journal_side.add(async ? journal_async(*f.sides, producers, kMeasure)
                                 : journal_threads(*f.sides, producers, kMeasure));
        },
        [&] { raw_side.add(raw_threads(*f.sides, producers, kMeasure)); },
        [&] { batch_side.add(raw_batches(*f.sides, producers, kMeasure)); },
    };
    const auto before = f.journal->writer().stats();
    for (int round = 0; round < kRounds; ++round) {
      for (int i = 0; i < 3; ++i) {
        f.quiesce();
        sides[(round + i) % 3]();
      }
    }
    if (f.sides->failed) state.SkipWithError("a write failed");
    const auto after = f.journal->writer().stats();
    state.counters["records_per_group"] = group_size(before, after);
    const auto sync = f.sync_times();
    state.counters["sync_mean_us"] = sync.mean_us;
    state.counters["sync_p50_us"] = sync.p50_us;
    state.counters["stored_bytes"] = static_cast<double>(f.sides->values[0].size());
    report(state, "journal", journal_side, false);
    report(state, "raw", raw_side, false);
    state.counters["batch_rec/s"] = median(batch_side.rates);
    state.counters["journal_pct_of_raw"] = 100 * median(journal_side.rates) / median(raw_side.rates);
    state.counters["journal_pct_of_batch"] = 100 * median(journal_side.rates) / median(batch_side.rates);
  }
}
BENCHMARK(BM_DurableAppend)
    ->ArgNames({"producers", "async", "companion"})
    ->Args({1, 0, 0})
    ->Args({16, 0, 0})
    ->Args({128, 0, 0})
    ->Args({128, 1, 0})
    ->Args({1024, 1, 0})
    ->Args({1024, 0, 0})
    ->Args({1, 0, 1})
    ->Args({16, 0, 1})
    ->Args({128, 0, 1})
    ->Args({1024, 1, 1})
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace
}  // namespace koordq::bench
