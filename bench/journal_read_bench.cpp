// Reads on a big journal: sequential read + decode through RecordCursor against a raw iterator
// scan of the same `log` column family, and time → seq lookups against the same seeks done on a
// raw iterator of the `time` column family.
#include <algorithm>
#include <optional>
#include <random>

#include <benchmark/benchmark.h>
#include <rocksdb/iterator.h>

#include "bench/journal_bench.hpp"
#include "bench/journal_big.hpp"
#include "journal/keys.hpp"

namespace koordq::bench {
namespace {

uint64_t journal_scan(journal::Journal& j, uint64_t count) {
  auto cursor = j.reader().cursor(1, count);
  uint64_t touched = 0;
  for (;;) {
    auto record = cursor.next();
    if (!record.ok()) throw std::runtime_error(record.message());
    if (!record->has_value()) break;
    const auto& r = **record;
    touched += r.seq() + static_cast<uint64_t>(r.kind()) + r.reader().getBody().getWatch().getName().size();
  }
  return touched;
}

uint64_t raw_scan(journal::RocksStore& store, uint64_t count) {
  std::unique_ptr<rocksdb::Iterator> it(store.db().NewIterator(rocksdb::ReadOptions(), store.log()));
  uint64_t touched = 0;
  uint64_t n = 0;
  for (it->Seek(journal::seq_key(1)); it->Valid() && n < count; it->Next(), ++n) {
    touched += it->key().size() + it->value().size() + static_cast<uint8_t>(it->value()[0]);
  }
  check(it->status(), "raw scan");
  return touched;
}

double seconds_of(auto&& f) {
  const int64_t start = now_nanos();
  f();
  return static_cast<double>(now_nanos() - start) / 1e9;
}

void BM_SequentialRead(benchmark::State& state) {
  BigJournal& big = big_journal();
  const uint64_t count = std::min<uint64_t>(big.records, 1'000'000);
  for (auto _ : state) {
    std::vector<double> journal_rates, raw_rates;
    benchmark::DoNotOptimize(raw_scan(big.journal->store(), count));  // warms the page cache
    for (int round = 0; round < kRounds; ++round) {
      auto run_journal = [&] {
        const double s = seconds_of([&] { benchmark::DoNotOptimize(journal_scan(*big.journal, count)); });
        journal_rates.push_back(static_cast<double>(count) / s);
      };
      auto run_raw = [&] {
        const double s = seconds_of([&] { benchmark::DoNotOptimize(raw_scan(big.journal->store(), count)); });
        raw_rates.push_back(static_cast<double>(count) / s);
      };
      if (round % 2 == 0) {
        run_journal();
        run_raw();
      } else {
        run_raw();
        run_journal();
      }
    }
    state.counters["records"] = static_cast<double>(count);
    state.counters["journal_rec/s"] = median(journal_rates);
    state.counters["raw_rec/s"] = median(raw_rates);
    state.counters["journal_pct_of_raw"] = 100 * median(journal_rates) / median(raw_rates);
  }
}
BENCHMARK(BM_SequentialRead)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

std::optional<uint64_t> raw_first_at_or_after(journal::RocksStore& store, int64_t t) {
  std::unique_ptr<rocksdb::Iterator> it(store.db().NewIterator(rocksdb::ReadOptions(), store.time()));
  it->Seek(journal::time_key(t, 0));
  if (!it->Valid()) return std::nullopt;
  return journal::decode_time_key(std::string_view(it->key().data(), it->key().size()))->seq;
}

std::optional<uint64_t> raw_last_at_or_before(journal::RocksStore& store, int64_t t) {
  std::unique_ptr<rocksdb::Iterator> it(store.db().NewIterator(rocksdb::ReadOptions(), store.time()));
  it->SeekForPrev(journal::time_key(t, UINT64_MAX));
  if (!it->Valid()) return std::nullopt;
  return journal::decode_time_key(std::string_view(it->key().data(), it->key().size()))->seq;
}

// Arg 0: first_seq_at_or_after, 1: last_seq_at_or_before. Times uniform over the journal's span.
void BM_TimeLookup(benchmark::State& state) {
  BigJournal& big = big_journal();
  const bool before = state.range(0) != 0;
  constexpr int kLookupsPerRound = 100'000;
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<int64_t> times(big.first_time, big.last_time);
  auto& reader = big.journal->reader();
  auto& store = big.journal->store();
  for (auto _ : state) {
    std::vector<int64_t> journal_nanos, raw_nanos;
    bool mismatch = false;
    for (int round = 0; round < kRounds; ++round) {
      std::vector<int64_t> ts(kLookupsPerRound);
      for (auto& t : ts) t = times(rng);
      std::vector<std::optional<uint64_t>> journal_seqs(ts.size()), raw_seqs(ts.size());
      auto run_journal = [&] {
        for (size_t i = 0; i < ts.size(); ++i) {
          const int64_t start = now_nanos();
          journal_seqs[i] = before ? reader.last_seq_at_or_before(ts[i]) : reader.first_seq_at_or_after(ts[i]);
          journal_nanos.push_back(now_nanos() - start);
        }
      };
      auto run_raw = [&] {
        for (size_t i = 0; i < ts.size(); ++i) {
          const int64_t start = now_nanos();
          raw_seqs[i] = before ? raw_last_at_or_before(store, ts[i]) : raw_first_at_or_after(store, ts[i]);
          raw_nanos.push_back(now_nanos() - start);
        }
      };
      if (round % 2 == 0) {
        run_journal();
        run_raw();
      } else {
        run_raw();
        run_journal();
      }
      mismatch = mismatch || journal_seqs != raw_seqs;
    }
    if (mismatch) state.SkipWithError("journal and raw lookups disagree");
    const auto j = percentiles(journal_nanos);
    const auto r = percentiles(raw_nanos);
    state.counters["records"] = static_cast<double>(big.records);
    state.counters["journal_p50_us"] = j.p50_us;
    state.counters["journal_p99_us"] = j.p99_us;
    state.counters["raw_p50_us"] = r.p50_us;
    state.counters["raw_p99_us"] = r.p99_us;
  }
}
BENCHMARK(BM_TimeLookup)->ArgName("before")->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace
}  // namespace koordq::bench
