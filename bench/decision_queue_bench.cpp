// Per-decision cost as one queue grows (BENCHMARKS.md, "Decision core"): one quota tree with one
// Priority Queue holding N waiting units (10 … 100,000) and quota for all of them; one round
// admits exactly one unit; one release of quota by a running unit of the queue; a waiting unit
// that arrives and goes. Google Benchmark
// fits the complexity over N.
#include <map>
#include <stdexcept>

#include <benchmark/benchmark.h>

#include "bench/decision_shape.hpp"

namespace koordq::bench {
namespace {

const std::string kQueue = "big";

actors::Scheduler one_queue(int64_t n) {
  actors::Scheduler s;
  s.advance_to(kT0);
  s.apply_object(make_quota(kQueue, "", 1'000'000'000), false);
  // Without the queue-items publication (at most once per refresh interval, a walk of the whole
  // queue), which the decide-only variant would otherwise repeat on every call.
  schema::Queue q = make_queue(kQueue);
  q.metadata.annotations["koord-queue/disable-show-queue-items"] = "true";
  s.apply_object(q, false);
  for (int64_t i = 0; i < n; ++i) s.apply_object(make_unit(i, kQueue), false);
  return s;
}

// The one admission of a round (a usage-annotation write may come with it).
const actors::Decision& the_admission(const std::vector<actors::Decision>& ds) {
  const actors::Decision* admission = nullptr;
  size_t admissions = 0;
  for (const auto& d : ds) {
    if (d.kind == actors::DecisionKind::kAdmit) admission = &d, ++admissions;
  }
  if (admissions != 1) {
    std::string kinds;
    for (const auto& d : ds) kinds += std::string(" ") + actors::decision_kind_name(d.kind);
    throw std::runtime_error("not one admission:" + kinds);
  }
  return *admission;
}

int64_t index_of(const actors::Decision& d) {
  return std::stoll(std::get<actors::UnitRef>(d.target).name.substr(4));  // "job-<i>"
}

// decide() alone on a fixed state: every iteration decides the same admission of the head.
void BM_QueueDepthDecide(benchmark::State& state) {
  const int64_t n = state.range(0);
  const actors::Scheduler s = one_queue(n);
  for (auto _ : state) {
    auto ds = s.decide();
    benchmark::DoNotOptimize(&the_admission(ds));
  }
  state.SetComplexityN(n);
}

// A whole round: advance one suspend interval, decide (one admission), apply the round. Untimed,
// the admitted unit is deleted and a new waiting unit added, so the queue stays at N.
void BM_QueueDepthRound(benchmark::State& state) {
  const int64_t n = state.range(0);
  actors::Scheduler s = one_queue(n);
  int64_t next = n, t = kT0;
  uint64_t seq = 0;
  for (auto _ : state) {
    t += kRoundStep;
    s.advance_to(t);
    auto ds = s.decide();
    s.apply_round(++seq, ds);
    state.PauseTiming();
    s.apply_object(make_unit(index_of(the_admission(ds)), kQueue), true);
    s.apply_object(make_unit(next++, kQueue), false);
    state.ResumeTiming();
  }
  state.SetComplexityN(n);
}

// A running unit of the queue goes (its job finished): the release of its quota. Untimed, it is
// added again. Every waiting unit of the quota is marked as having seen a capacity change
// (behaviour.md §6.3, Block step 3) by the queue's count, and those backing off wake (none here).
void BM_QueueDepthRelease(benchmark::State& state) {
  const int64_t n = state.range(0);
  actors::Scheduler s = one_queue(n);
  schema::QueueUnit running = make_unit(n + 1'000'000, kQueue);
  running.status.phase = "Running";
  running.status.admissions = {{"koord-queue/default-requirement", 1, std::nullopt, 1, std::nullopt}};
  int64_t t = kT0;
  for (auto _ : state) {
    state.PauseTiming();
    t += kRoundStep;
    s.advance_to(t);
    s.apply_object(running, false);
    state.ResumeTiming();
    s.apply_object(running, true);
  }
  state.SetComplexityN(n);
}

// A waiting unit arrives in the queue and goes again (both timed): a watch event's cost in a deep
// queue.
void BM_QueueDepthArrival(benchmark::State& state) {
  const int64_t n = state.range(0);
  actors::Scheduler s = one_queue(n);
  const schema::QueueUnit arriving = make_unit(n + 1'000'000, kQueue);
  int64_t t = kT0;
  for (auto _ : state) {
    t += kRoundStep;
    s.advance_to(t);
    s.apply_object(arriving, false);
    s.apply_object(arriving, true);
  }
  state.SetComplexityN(n);
}

BENCHMARK(BM_QueueDepthDecide)->RangeMultiplier(10)->Range(10, 100'000)->Complexity()->Unit(benchmark::kMicrosecond);

// A fixed count of 200 for each depth: the untimed parts (deleting and adding a unit, in the
// round) would dominate if Google Benchmark repeated a cheap step tens of thousands of times.
void fixed_depth_series(benchmark::internal::Benchmark* b) {
  b->RangeMultiplier(10)->Range(10, 100'000)->Iterations(200)->Complexity()->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_QueueDepthRound)->Apply(fixed_depth_series);
BENCHMARK(BM_QueueDepthRelease)->Apply(fixed_depth_series);
BENCHMARK(BM_QueueDepthArrival)->Apply(fixed_depth_series);

}  // namespace
}  // namespace koordq::bench
