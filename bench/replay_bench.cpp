// `koordq replay` throughput (BENCHMARKS.md, Replay): a full replay (every record folded from
// seq 1, no snapshot) and a full --verify, next to a raw scan of the same journal through the
// JournalReader cursor (read + parse every record, touch its kind), in the same run, and the
// reading thread's share of the replay alone (the scan plus every record decoded).
// And time travel (behaviour.md §18): the state at random revisions rebuilt from the newest
// snapshot before each, as an `asOf` miss does, with its latency percentiles, next to the raw scan
// of the same records after the same snapshots.
// The journal is KOORDQ_BENCH_REPLAY_JOURNAL (scripts/bench-replay.sh makes one).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "bench/latency_counters.hpp"
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

// The reading thread's share of a full replay: the raw scan plus what actors::prepare_record
// decodes ahead of the fold (every record's content), on one thread, nothing applied.
void BM_PreparedScan(benchmark::State& state) {
  uint64_t records = 0;
  for (auto _ : state) {
    auto cursor = reader().cursor(1);
    records = 0;
    for (;;) {
      auto next = cursor.next();
      if (!next.ok()) throw std::runtime_error(next.message());
      if (!next->has_value()) break;
      auto prepared = actors::prepare_record(std::move(**next));
      if (!prepared.ok()) throw std::runtime_error(prepared.message());
      benchmark::DoNotOptimize(prepared->effect);
      ++records;
    }
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

// The same revisions for both time-travel rows: uniform over the journal, a fixed seed; 200, or
// KOORDQ_BENCH_TRAVEL_TARGETS of them (fewer for a run under valgrind).
const std::vector<uint64_t>& travel_targets() {
  static const std::vector<uint64_t> targets = [] {
    std::mt19937_64 rng(42);
    const uint64_t first = reader().first_seq(), last = reader().last_seq();
    std::uniform_int_distribution<uint64_t> pick(first, last);
    const char* count = std::getenv("KOORDQ_BENCH_TRAVEL_TARGETS");
    std::vector<uint64_t> out(count != nullptr ? std::max(1, std::atoi(count)) : 200);
    for (uint64_t& t : out) t = pick(rng);
    return out;
  }();
  return targets;
}

// restore_state at each target: the snapshot decoded, the records after it folded.
void BM_TimeTravelRestore(benchmark::State& state) {
  std::vector<double> millis;
  uint64_t folded = 0;
  for (auto _ : state) {
    for (uint64_t target : travel_targets()) {
      const auto started = std::chrono::steady_clock::now();
      auto restored = actors::restore_state(reader(), target, {});
      if (!restored.ok()) throw std::runtime_error(restored.message());
      millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
      folded += restored->applied_records;
      benchmark::DoNotOptimize(restored->scheduler.units().size());
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(folded));
  state.counters["records_after_snapshot"] = static_cast<double>(folded) / static_cast<double>(millis.size());
  report_percentiles(state, std::move(millis));
}

// replay::replay_to at each target: what `koordq at` and the console run for a revision (the newest
// snapshot, checked against its anchor, then the records after it folded).
void BM_TimeTravelReplayTo(benchmark::State& state) {
  std::vector<double> millis;
  uint64_t folded = 0;
  for (auto _ : state) {
    for (uint64_t target : travel_targets()) {
      const auto started = std::chrono::steady_clock::now();
      auto replayed = replay::replay_to(reader(), target);
      if (!replayed.ok()) throw std::runtime_error(replayed.message());
      millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
      folded += replayed->folded;
      benchmark::DoNotOptimize(replayed->scheduler.units().size());
    }
  }
  state.SetItemsProcessed(static_cast<int64_t>(folded));
  state.counters["records_after_snapshot"] = static_cast<double>(folded) / static_cast<double>(millis.size());
  report_percentiles(state, std::move(millis));
}

// The raw read of the records each restore folds (after the same snapshot, up to the target).
void BM_TimeTravelRawScan(benchmark::State& state) {
  std::vector<double> millis;
  std::vector<uint64_t> from;
  for (uint64_t target : travel_targets()) {
    auto snapshot = actors::newest_snapshot(reader(), target);
    from.push_back(snapshot ? snapshot->seq + 1 : reader().first_seq());
  }
  for (auto _ : state) {
    for (size_t i = 0; i < from.size(); ++i) {
      const auto started = std::chrono::steady_clock::now();
      auto cursor = reader().cursor(from[i]);
      uint64_t touched = 0;
      for (;;) {
        auto next = cursor.next();
        if (!next.ok()) throw std::runtime_error(next.message());
        if (!next->has_value() || (**next).seq() > travel_targets()[i]) break;
        touched += static_cast<uint64_t>((**next).kind());
      }
      benchmark::DoNotOptimize(touched);
      millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count());
    }
  }
  report_percentiles(state, std::move(millis));
}

// Interleaved, so that load from other processes hits every side alike.
BENCHMARK(BM_RawCursorScan)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PreparedScan)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FullReplay)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_FullVerify)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TimeTravelRawScan)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_TimeTravelRestore)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_TimeTravelReplayTo)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);

}  // namespace
}  // namespace koordq::bench

BENCHMARK_MAIN();
