// Serving-surface renderings (BENCHMARKS.md "Serving surfaces"): visibility pages of 10 and 1,000
// items from a 10k-unit queue (rendered, and served again from the response cache), and /metrics
// at 1,000 quotas and 10k units (written as text directly, and through prometheus-cpp's
// MetricFamily and serializer) next to prometheus-cpp collecting and serializing a registry with
// the same series alone, in the same run.
#include <benchmark/benchmark.h>
#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include "api/queueing_metrics.hpp"
#include "api/response_cache.hpp"
#include "api/visibility_render.hpp"
#include "bench/decision_shape.hpp"

namespace koordq::bench {
namespace {

// 10k waiting units and one that has finished: not every member waits, as in a live queue.
const actors::Scheduler& one_deep_queue() {
  static const actors::Scheduler s = [] {
    actors::Scheduler built = build_scheduler({1, 1, 10'000});
    schema::QueueUnit done = make_unit(10'000, leaf_name({1, 1, 10'000}, 0));
    done.status.phase = "Succeed";
    built.apply_object(schema::WatchedObject(done), false);
    return built;
  }();
  return s;
}

const actors::Scheduler& metrics_shape() {
  static const actors::Scheduler s = build_scheduler({1000, 100, 10'000});
  return s;
}

void BM_VisibilityQueueUnitsPage(benchmark::State& state) {
  const actors::Scheduler& s = one_deep_queue();
  const std::string queue = leaf_name({1, 1, 10'000}, 0);
  const api::PageParams page{0, state.range(0)};
  size_t bytes = 0;
  for (auto _ : state) {
    auto body = api::render_queue_units(s, 42, queue, {}, page);
    bytes = body->size();
    benchmark::DoNotOptimize(body);
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VisibilityQueueUnitsPage)->Arg(10)->Arg(1000)->Unit(benchmark::kMicrosecond);

void BM_VisibilityCachedPage(benchmark::State& state) {
  api::ResponseCache cache;
  const std::string key = "/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues/q-0-0/queueunits&limit=1000";
  cache.store(
      42, key,
      std::make_shared<const std::string>(*api::render_queue_units(one_deep_queue(), 42, "q-0-0", {}, {0, 1000})));
  for (auto _ : state) benchmark::DoNotOptimize(cache.find(42, key));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_VisibilityCachedPage)->Unit(benchmark::kMicrosecond);

size_t samples_of(const std::vector<prometheus::MetricFamily>& families) {
  size_t n = 0;
  for (const auto& f : families) {
    for (const auto& m : f.metric) n += f.type == prometheus::MetricType::Histogram ? m.histogram.bucket.size() + 2 : 1;
  }
  return n;
}

// What /metrics does: the projection written as text directly, into a buffer of the last
// scrape's size.
void BM_MetricsQueueingFamilies(benchmark::State& state) {
  const actors::Scheduler& s = metrics_shape();
  api::SeriesMemory memory;
  const size_t samples = samples_of(api::queueing_families(s, memory));
  size_t last_size = 0;
  for (auto _ : state) {
    std::string text;
    text.reserve(last_size);
    auto written = api::write_queueing_families(s, memory, text);
    last_size = text.size();
    benchmark::DoNotOptimize(written);
    benchmark::DoNotOptimize(text);
  }
  state.counters["bytes"] = static_cast<double>(last_size);
  state.counters["samples"] = static_cast<double>(samples);
  state.counters["ns_per_sample"] = benchmark::Counter(
      static_cast<double>(samples), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_MetricsQueueingFamilies)->Unit(benchmark::kMillisecond);

// The same projection as prometheus-cpp MetricFamily values, serialized by prometheus-cpp (what
// /metrics did before, and what `koordq at` does).
void BM_MetricsQueueingFamiliesThroughPrometheusCpp(benchmark::State& state) {
  const actors::Scheduler& s = metrics_shape();
  api::SeriesMemory memory;
  size_t samples = 0;
  for (auto _ : state) {
    auto families = api::queueing_families(s, memory);
    samples = samples_of(families);
    std::string text = prometheus::TextSerializer().Serialize(families);
    benchmark::DoNotOptimize(text);
  }
  state.counters["samples"] = static_cast<double>(samples);
  state.counters["ns_per_sample"] = benchmark::Counter(
      static_cast<double>(samples), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_MetricsQueueingFamiliesThroughPrometheusCpp)->Unit(benchmark::kMillisecond);

// The same families and series registered in a prometheus-cpp Registry, collected and
// serialized by prometheus-cpp alone.
void BM_PrometheusCppSameRegistry(benchmark::State& state) {
  api::SeriesMemory memory;
  const auto families = api::queueing_families(metrics_shape(), memory);
  prometheus::Registry registry;
  for (const auto& f : families) {
    if (f.type == prometheus::MetricType::Gauge) {
      auto& family = prometheus::BuildGauge().Name(f.name).Help(f.help).Register(registry);
      for (const auto& m : f.metric) {
        std::map<std::string, std::string> labels;
        for (const auto& l : m.label) labels[l.name] = l.value;
        family.Add(labels).Set(m.gauge.value);
      }
    } else if (f.type == prometheus::MetricType::Counter) {
      auto& family = prometheus::BuildCounter().Name(f.name).Help(f.help).Register(registry);
      for (const auto& m : f.metric) {
        std::map<std::string, std::string> labels;
        for (const auto& l : m.label) labels[l.name] = l.value;
        family.Add(labels).Increment(m.counter.value);
      }
    } else if (f.type == prometheus::MetricType::Histogram) {
      auto& family = prometheus::BuildHistogram().Name(f.name).Help(f.help).Register(registry);
      for (const auto& m : f.metric) {
        std::map<std::string, std::string> labels;
        for (const auto& l : m.label) labels[l.name] = l.value;
        prometheus::Histogram::BucketBoundaries bounds;
        for (size_t i = 0; i + 1 < m.histogram.bucket.size(); ++i) bounds.push_back(m.histogram.bucket[i].upper_bound);
        family.Add(labels, bounds).Observe(1);
      }
    }
  }
  const size_t samples = samples_of(families);
  for (auto _ : state) {
    std::string text = prometheus::TextSerializer().Serialize(registry.Collect());
    benchmark::DoNotOptimize(text);
  }
  state.counters["samples"] = static_cast<double>(samples);
  state.counters["ns_per_sample"] = benchmark::Counter(
      static_cast<double>(samples), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PrometheusCppSameRegistry)->Unit(benchmark::kMillisecond);

// What the projection reads from the decision state, alone (no series written): the walk over
// the units reading what the gauges count, and the quota accessors (names, find, a copy of the
// usage). They bound what any writer can reach with the state's present accessors.
void BM_MetricsUnitWalkAlone(benchmark::State& state) {
  const actors::Scheduler& s = metrics_shape();
  for (auto _ : state) {
    int64_t n = 0;
    for (const auto& [key, u] : s.units()) {
      if (u.waiting) n += s.is_active(u) ? 1 : 2;
      n += static_cast<int64_t>(u.object.metadata.namespace_.size() + u.quota.size());
      if (u.holds) n += static_cast<int64_t>(u.charge.size());
      if (const auto& ref = u.object.spec.consumer_ref; ref) n += static_cast<int64_t>(ref->kind.size());
    }
    benchmark::DoNotOptimize(n);
  }
}
BENCHMARK(BM_MetricsUnitWalkAlone)->Unit(benchmark::kMillisecond);

void BM_MetricsQuotaReadsAlone(benchmark::State& state) {
  const actors::Scheduler& s = metrics_shape();
  for (auto _ : state) {
    size_t n = 0;
    for (const std::string& name : s.quotas().names()) {
      n += s.quotas().find(name)->max.size() + s.quotas().usage(name).used.size();
    }
    benchmark::DoNotOptimize(n);
  }
}
BENCHMARK(BM_MetricsQuotaReadsAlone)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace koordq::bench

BENCHMARK_MAIN();
