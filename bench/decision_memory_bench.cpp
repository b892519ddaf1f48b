// Memory and snapshots of the decision state (BENCHMARKS.md, "Decision core"): resident memory
// per waiting unit, and the state snapshot's bytes per unit and encode / decode time.
#include <stdexcept>

#include <benchmark/benchmark.h>
#include <malloc.h>

#include "actors/wire/state_snapshot.hpp"
#include "bench/decision_shape.hpp"

namespace koordq::bench {
namespace {

// RSS growth while a Scheduler takes in range(0) waiting units (1k-queue shape's trees and
// queues). Meaningful as the first benchmark of its process: run it alone with a filter.
void BM_UnitMemory(benchmark::State& state) {
  const Shape shape{1000, 100, static_cast<int>(state.range(0))};
  for (auto _ : state) {
    ::malloc_trim(0);
    const int64_t before = resident_bytes();
    auto s = std::make_unique<actors::Scheduler>(build_scheduler(shape));
    ::malloc_trim(0);
    const int64_t after = resident_bytes();
    size_t waiting = 0;
    for (const auto& [name, q] : s->queues()) waiting += q.waiting.size();
    state.counters["rss_MiB"] = static_cast<double>(after - before) / (1 << 20);
    state.counters["rss_per_unit_B"] = static_cast<double>(after - before) / static_cast<double>(shape.units);
    state.counters["waiting"] = static_cast<double>(waiting);
    state.PauseTiming();
    s.reset();
    state.ResumeTiming();
  }
}

const actors::Scheduler& snapshot_state() {
  static const actors::Scheduler s = build_scheduler(Shape{1000, 100, 50'000});
  return s;
}

const std::string kUuid = "00000000-0000-4000-8000-000000000001";

void BM_SnapshotEncode(benchmark::State& state) {
  const actors::Scheduler& s = snapshot_state();
  size_t bytes = 0;
  for (auto _ : state) {
    const std::string b = actors::encode_state_snapshot(s, 50'000, kT0, kUuid);
    bytes = b.size();
    benchmark::DoNotOptimize(b.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["bytes_per_unit"] = static_cast<double>(bytes) / static_cast<double>(s.units().size());
}

void BM_SnapshotDecode(benchmark::State& state) {
  const std::string bytes = actors::encode_state_snapshot(snapshot_state(), 50'000, kT0, kUuid);
  for (auto _ : state) {
    auto restored = actors::decode_state_snapshot(bytes, actors::DecisionConfig{});
    if (!restored.ok()) throw std::runtime_error(restored.message());
    state.PauseTiming();
    { auto drop = std::move(restored); }
    state.ResumeTiming();
  }
  state.counters["bytes"] = static_cast<double>(bytes.size());
}

BENCHMARK(BM_UnitMemory)->Arg(100'000)->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SnapshotEncode)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SnapshotDecode)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace koordq::bench
