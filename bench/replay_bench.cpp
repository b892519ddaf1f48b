// `koordq replay` throughput (BENCHMARKS.md, Replay): a full replay (every record folded from
// seq 1, no snapshot) and a full --verify, next to a raw scan of the same journal through the
// JournalReader cursor (read + parse every record, touch its kind), in the same run.
// The journal is KOORDQ_BENCH_REPLAY_JOURNAL (scripts/bench-replay.sh makes one).
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include <benchmark/benchmark.h>

#include "journal/journal_reader.hpp"
#include "replay/replay.hpp"

namespace koordq::bench {
namespace {

journal::JournalReader& reader() {
  static std::unique_ptr<journal::JournalReader> instance = [] {
    const char* dir = std::getenv("KOORDQ_BENCH_REPLAY_JOURNAL");
    if (dir == nullptr) throw std::runtime_error("set KOORDQ_BENCH_REPLAY_JOURNAL to a journal directory");
    auto opened = journal::JournalReader::open_secondary(dir);
    if (!opened.ok()) throw std::runtime_error(opened.message());
    return std::move(opened).value();
  }();
  return *instance;
}

void BM_RawCursorScan(benchmark::State& state) {
  uint64_t records = 0;
  for (auto _ : state) {
    auto cursor = reader().cursor(1);
    uint64_t touched = 0;
    records = 0;
    for (;;) {
      auto next = cursor.next();
      if (!next.ok()) throw std::runtime_error(next.message());
      if (!next->has_value()) break;
      touched += static_cast<uint64_t>((**next).kind()) + (**next).seq();
      ++records;
    }
    benchmark::DoNotOptimize(touched);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * records));
  state.counters["records"] = static_cast<double>(records);
}

void BM_FullReplay(benchmark::State& state) {
  uint64_t records = 0;
  for (auto _ : state) {
    auto replayed = replay::replay_to(reader(), UINT64_MAX, {}, replay::Start::first_record);
    if (!replayed.ok()) throw std::runtime_error(replayed.message());
    records = replayed->folded;
    benchmark::DoNotOptimize(replayed->scheduler.units().size());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * records));
  state.counters["records"] = static_cast<double>(records);
}

void BM_FullVerify(benchmark::State& state) {
  uint64_t records = 0;
  uint64_t rounds = 0;
  for (auto _ : state) {
    auto verified = replay::verify_rounds(reader(), UINT64_MAX);
    if (!verified.ok()) throw std::runtime_error(verified.message());
    if (!verified->ok()) throw std::runtime_error("the journal does not verify");
    records = verified->records;
    rounds = verified->rounds;
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * records));
  state.counters["records"] = static_cast<double>(records);
  state.counters["rounds"] = static_cast<double>(rounds);
}

// Interleaved, so that load from other processes hits every side alike.
BENCHMARK(BM_RawCursorScan)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FullReplay)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FullVerify)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace koordq::bench

BENCHMARK_MAIN();
