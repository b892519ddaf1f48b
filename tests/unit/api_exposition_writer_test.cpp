// The text writer of /metrics against prometheus-cpp's TextSerializer (behaviour.md §15.1: text
// format 0.0.4): the same MetricFamily values come out byte for byte (label escaping, doubles,
// histogram lines), the queueing families written as text equal the serialized MetricFamily
// projection through the §15.4 lifecycle, and /metrics keeps every family in name order.
#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>

#include <gtest/gtest.h>
#include <prometheus/text_serializer.h>

#include "api/exposition_writer.hpp"
#include "api/metrics_service.hpp"
#include "api/process_metrics.hpp"
#include "api/queueing_metrics.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using prometheus::MetricType;

constexpr double kInf = std::numeric_limits<double>::infinity();

std::string serialized(const std::vector<prometheus::MetricFamily>& families) {
  return prometheus::TextSerializer().Serialize(families);
}

// The families through the writer, series by series as the projection writes them.
std::string written(const std::vector<prometheus::MetricFamily>& families) {
  std::string out = "kept ";  // the writer appends
  {
    api::ExpositionWriter writer(out);
    for (const auto& f : families) {
      writer.family(f.name, f.help, f.type);
      for (const auto& m : f.metric) {
        std::vector<api::Label> labels;
        for (const auto& l : m.label) labels.push_back({l.name, l.value});
        switch (f.type) {
          case MetricType::Counter:
            writer.sample(f.name, labels, m.counter.value);
            break;
          case MetricType::Gauge:
            writer.sample(f.name, labels, m.gauge.value);
            break;
          case MetricType::Histogram: {
            // The builder's last bucket is +Inf with every observation; the writer adds that one.
            std::vector<double> bounds;
            std::vector<uint64_t> cumulative;
            for (size_t i = 0; i + 1 < m.histogram.bucket.size(); ++i) {
              bounds.push_back(m.histogram.bucket[i].upper_bound);
              cumulative.push_back(m.histogram.bucket[i].cumulative_count);
            }
            writer.histogram(f.name, labels, bounds, cumulative, m.histogram.sample_count, m.histogram.sample_sum);
            break;
          }
          default:
            ADD_FAILURE() << "not written by the projection";
        }
      }
    }
  }
  EXPECT_EQ(out.substr(0, 5), "kept ");
  return out.substr(5);
}

prometheus::MetricFamily family(std::string name, std::string help, MetricType type) {
  prometheus::MetricFamily f;
  f.name = std::move(name);
  f.help = std::move(help);
  f.type = type;
  return f;
}

prometheus::ClientMetric gauge(std::vector<prometheus::ClientMetric::Label> labels, double value) {
  prometheus::ClientMetric m;
  m.label = std::move(labels);
  m.gauge.value = value;
  return m;
}

// Values where "%.16g" changes notation or rounds, the integer shortcut's edges, and the
// non-finite ones.
std::vector<double> edge_values() {
  return {0.0,
          -0.0,
          1.0,
          -1.0,
          1500,
          1.5,
          0.1,
          0.001,
          1.0 / 3.0,
          2.0 / 3.0,
          -2.5,
          1e-4,
          1e-5,
          2.5e-5,
          123.456,
          8589934592.0,
          999999999999999.0,
          999999999999999.9,
          1e15 - 1,
          1e15,
          1e15 + 1,
          -1e15,
          -(1e15 - 1),
          1e16,
          1e17,
          9007199254740992.0,
          9007199254740993.0,
          9.223372036854775807e18,
          -9.223372036854775808e18,
          1.2345678901234567e17,
          112589990684262400.0,
          1e21,
          1e22,
          1e300,
          -1e300,
          1e-300,
          std::numeric_limits<double>::max(),
          std::numeric_limits<double>::min(),
          std::numeric_limits<double>::denorm_min(),
          std::numeric_limits<double>::epsilon(),
          0.30000000000000004,
          163.84,
          0.01 * 16384,
          kInf,
          -kInf,
          std::numeric_limits<double>::quiet_NaN()};
}

TEST(ExpositionWriter, writes_gauges_and_counters_as_prometheus_cpp_serializes_them) {
  auto values = family("edge_values", "Values; with \"quotes\" \\ and\nnewline kept as given.", MetricType::Gauge);
  for (double v : edge_values()) values.metric.push_back(gauge({{"v", "x"}}, v));
  auto escaped = family("escaped_labels", "Label values.", MetricType::Counter);
  for (const std::string value : {"", "plain", "a\"b", "back\\slash", "new\nline", "\\\"\n", "trailing\\", "\"", "\n\n",
                                  "tab\tcr\r", "utf-8 \xc3\xbc \xe2\x82\xac", "{}=,"}) {
    prometheus::ClientMetric m;
    m.label = {{"namespace", value}, {"type", "Job"}, {"status", value + value}};
    m.counter.value = 7;
    escaped.metric.push_back(m);
  }
  auto unlabelled = family("no_help_no_labels", "", MetricType::Gauge);
  unlabelled.metric.push_back(gauge({}, 42));
  const std::vector<prometheus::MetricFamily> families = {values, escaped, unlabelled};
  EXPECT_EQ(written(families), serialized(families));
}

TEST(ExpositionWriter, writes_every_double_as_prometheus_cpp_does) {
  auto values = family("random_doubles", "Random bit patterns and decimals.", MetricType::Gauge);
  std::mt19937_64 random(20261201);
  for (int i = 0; i < 20000; ++i) {
    const uint64_t bits = random();
    values.metric.push_back(gauge({}, std::bit_cast<double>(bits)));
    // Decimals and integers as the families hold them: millicores, cores, counts, seconds.
    values.metric.push_back(gauge({}, static_cast<double>(static_cast<int64_t>(bits % 100000000)) / 1000.0));
    values.metric.push_back(gauge({}, static_cast<double>(bits >> (bits % 64))));
    values.metric.push_back(gauge({}, -static_cast<double>(bits % 1000000) / 1e9));
  }
  const std::vector<prometheus::MetricFamily> families = {values};
  const std::string ours = written(families);
  const std::string theirs = serialized(families);
  ASSERT_EQ(ours.size(), theirs.size());
  std::istringstream a(ours), b(theirs);
  for (std::string x, y; std::getline(a, x) && std::getline(b, y);) ASSERT_EQ(x, y);
}

TEST(ExpositionWriter, writes_histograms_as_prometheus_cpp_serializes_them) {
  auto h = family("wait_seconds", "Seconds.", MetricType::Histogram);
  const std::vector<double> bounds = {1e-4, 0.001, 1, 2.5, 5, 163.84, 1e15, 1e16, 16777216};
  for (const double sum : {0.0, 1234.5678, 1e-9, 1e20, std::numeric_limits<double>::quiet_NaN()}) {
    prometheus::ClientMetric m;
    m.label = {{"queue", "q\"1\\\n"}};
    uint64_t n = 0;
    for (double bound : bounds) m.histogram.bucket.push_back({n += 3, bound});
    m.histogram.bucket.push_back({n + 5, kInf});
    m.histogram.sample_count = n + 5;
    m.histogram.sample_sum = sum;
    h.metric.push_back(m);
  }
  auto unlabelled = family("latency", "", MetricType::Histogram);
  prometheus::ClientMetric empty;
  empty.histogram.bucket.push_back({0, 1});
  empty.histogram.bucket.push_back({0, kInf});
  unlabelled.metric.push_back(empty);
  const std::vector<prometheus::MetricFamily> families = {h, unlabelled};
  EXPECT_EQ(written(families), serialized(families));
}

std::string written_projection(const actors::Scheduler& s, api::SeriesMemory& memory) {
  std::string out;
  const std::vector<api::WrittenFamily> families = api::write_queueing_families(s, memory, out);
  size_t at = 0;
  for (const api::WrittenFamily& f : families) {
    EXPECT_EQ(f.begin, at) << f.name;  // one after the other, nothing between
    EXPECT_EQ(out.compare(f.begin, 7 + f.name.size(), "# HELP " + std::string(f.name)), 0) << f.name;
    at = f.end;
  }
  EXPECT_EQ(at, out.size());
  return out;
}

void expect_same_memory(const api::SeriesMemory& a, const api::SeriesMemory& b) {
  EXPECT_EQ(a.quota_resources, b.quota_resources);
  EXPECT_EQ(a.namespace_resources, b.namespace_resources);
  EXPECT_EQ(a.namespace_types, b.namespace_types);
}

schema::QueueUnit job(const std::string& name, const std::string& quota, const std::string& cpu, const std::string& ns,
                      const std::string& kind, int64_t created) {
  schema::QueueUnit u = unit(name, quota, cpu, 0, created, ns);
  if (!kind.empty()) u.spec.consumer_ref = schema::ConsumerRef{"batch/v1", kind, name, ns, "uid-" + name};
  return u;
}

// A state with every queueing family: fractional cores, a memory amount beyond 10^15, job types
// that need escaping, backoff and admitted units, admission waits in several buckets; then
// deletions, and namespaces that empty and age out (§15.4).
TEST(QueueingText, equals_the_serialized_projection_through_the_series_lifecycle) {
  SchedulerDriver d;
  d.input(quota("tree", "", {{"cpu", "100"}, {"memory", "200Pi"}}));
  d.input(quota("team-a", "tree", {{"cpu", "4"}, {"memory", "100Pi"}, {"nvidia.com/gpu", "2"}}));
  d.input(quota("team-b", "tree", {{"cpu", "1"}}));
  d.input(queue("team-a"));
  d.input(queue("team-b"));
  d.input(job("small", "team-a", "1500m", "default", "Job \"batch\" \\ v1\nnext", 0));
  schema::QueueUnit tiny = job("tiny", "team-a", "1m", "ml", "TFJob", 0);
  tiny.spec.resource["memory"] = tiny.spec.request["memory"] = "50Pi";
  d.input(tiny);
  d.input(job("big", "team-a", "8", "default", "Job", 0));
  d.input(job("other", "team-b", "333m", "batch", "", 10 * kSec));
  d.input(job("late", "team-b", "2", "ml", "PyTorchJob", 500 * kSec));
  d.run_until(d.time + 5 * kSec);

  api::SeriesMemory by_text, by_family;
  auto expect_same = [&](const char* step) {
    SCOPED_TRACE(step);
    const std::string text = written_projection(d.s, by_text);
    EXPECT_EQ(text, serialized(api::queueing_families(d.s, by_family)));
    expect_same_memory(by_text, by_family);
    return text;
  };
  const std::string first = expect_same("everything present");
  for (const char* family :
       {"queueunits_in_active_queue", "queueunits_in_backoff_queue", "dequeued_quota_usage_by_quota",
        "dequeued_quota_usage_by_namespace", "queueunits_by_job_type", "queueunits_coming_rate_by_job_type",
        "job_schedule_attempts", "koordq_admission_wait_seconds"}) {
    EXPECT_NE(first.find("# TYPE " + std::string(family) + " "), std::string::npos) << family << "\n" << first;
  }
  EXPECT_NE(first.find("type=\"Job \\\"batch\\\" \\\\ v1\\nnext\""), std::string::npos) << first;
  EXPECT_NE(first.find("dequeued_quota_usage_by_namespace{namespace=\"ml\",resource=\"cpu\"} 0.001"), std::string::npos)
      << first;
  EXPECT_NE(first.find("dequeued_quota_usage_by_quota{quota=\"team-a\",resource=\"memory\"} 5.62949953421312e+16"),
            std::string::npos)
      << first;
  EXPECT_NE(first.find("koordq_admission_wait_seconds_bucket{queue=\"team-a\",le=\"2.5\"}"), std::string::npos);

  d.input(job("small", "team-a", "1500m", "default", "Job \"batch\" \\ v1\nnext", 0), true);
  expect_same("a unit deleted: its type's series stays at 0");
  d.input(queue("team-b"), true);
  d.input(quota("team-b", "tree", {{"cpu", "1"}}), true);
  expect_same("a queue and its quota deleted");
  d.input(job("big", "team-a", "8", "default", "Job", 0), true);
  d.run_until(d.time + 4 * 60 * kSec, kSec);
  expect_same("namespace default empty for 4 minutes");
  d.run_until(d.time + 61 * kSec, kSec);
  const std::string last = expect_same("namespace default gone");
  EXPECT_EQ(last.find("namespace=\"default\""), std::string::npos) << last;
}

TEST(QueueingText, an_empty_state_writes_nothing) {
  actors::Scheduler s;
  api::SeriesMemory memory;
  std::string out;
  EXPECT_TRUE(api::write_queueing_families(s, memory, out).empty());
  EXPECT_EQ(out, "");
}

// The leader's /metrics: the written families merged with prometheus-cpp's in family-name order,
// each one whole.
TEST(QueueingText, metrics_keeps_every_family_in_name_order) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "4"}}));
  d.input(queue("team-a"));
  d.input(job("small", "team-a", "1500m", "default", "Job", 0));
  d.input(job("big", "team-a", "8", "default", "Job", 0));
  d.run_until(d.time + 5 * kSec);
  api::ProcessMetrics process("0.1.0", "unknown");
  api::MetricsContext context;
  context.process = &process;
  context.leader = [] { return true; };
  context.live = [&] {
    return std::make_shared<const actors::pages::ReadPages>(actors::pages::build_read_pages(d.s, 42));
  };
  api::MetricsService service(context);
  const std::string text = service.render();

  std::vector<std::string> names;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# TYPE ", 0) == 0) names.push_back(line.substr(7, line.find(' ', 7) - 7));
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end())) << text;
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end()) << text;
  api::SeriesMemory memory;
  for (const prometheus::MetricFamily& f : api::queueing_families(d.s, memory)) {
    EXPECT_NE(text.find(serialized({f})), std::string::npos) << f.name << "\n" << text;
  }
  EXPECT_NE(text.find("koordq_last_applied_sequence 42\n"), std::string::npos);
  EXPECT_NE(text.find("koordq_leader 1\n"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
