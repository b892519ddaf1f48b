// The cluster simulator (kube/simulator): scenario files, determinism, the API server's answers to
// koordq's writes, the job extension it plays, restart, and the default scenario driven by the
// decision logic.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <map>
#include <set>

#include <gtest/gtest.h>

#include "actors/core/scheduler.hpp"
#include "actors/core/status_change.hpp"
#include "kube/simulator/simulated_cluster.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::kube::sim {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;
using actors::OutcomeResult;
using schema::ObjectKind;
using schema::WatchEventType;

constexpr int64_t kSec = 1'000'000'000;
constexpr int64_t kStart = 1'776'672'000 * kSec;  // 2026-04-20T08:00:00Z

constexpr std::string_view kTiny = R"yaml(name: tiny
jobExtension:
  startDelay: 2s
  reclaimDelay: 3s
  suspendDelay: 1s
  deleteAfter: 10s
quotas:
  - name: team
    max: {cpu: "100"}
  - name: checked
    max: {cpu: "100"}
admissionChecks:
  - name: provisioning
    readyAfter: 4s
queues:
  - name: team
  - name: checked
    admissionChecks:
      - name: provisioning
jobClasses:
  - name: train
    kind: PyTorchJob
    namespaces: [ml]
    quota: team
    podSets:
      - name: worker
        replicas: 4
        resources: {cpu: "1", nvidia.com/gpu: "1"}
    arrivalsPerMinute: 6
    runTime: 30s
    failurePercent: 0
  - name: gated
    kind: Job
    namespaces: [ml]
    quota: checked
    request: {cpu: "1"}
    arrivalsPerMinute: 0
    runTime: 30s
)yaml";

Scenario tiny() {
  auto s = parse_scenario(kTiny, "tiny");
  EXPECT_TRUE(s.ok()) << s.message();
  return *s;
}

std::string trace_of(const std::vector<TimedEvent>& events) {
  std::string out;
  for (const auto& e : events) {
    out += std::to_string(e.time) + " " + schema::watch_event_type_name(e.event.type) + " " + e.event.raw_json + "\n";
  }
  return out;
}

const schema::QueueUnit* first_unit(const std::vector<TimedEvent>& events) {
  for (const auto& e : events) {
    if (e.event.type == WatchEventType::kAdded && e.event.kind() == ObjectKind::kQueueUnit) {
      return &std::get<schema::QueueUnit>(*e.event.object);
    }
  }
  return nullptr;
}

// The unit's versions in these events, in order.
std::vector<schema::QueueUnit> versions_of(const std::vector<TimedEvent>& events, const std::string& name) {
  std::vector<schema::QueueUnit> out;
  for (const auto& e : events) {
    if (e.event.kind() != ObjectKind::kQueueUnit) continue;
    const auto& u = std::get<schema::QueueUnit>(*e.event.object);
    if (u.metadata.name == name) out.push_back(u);
  }
  return out;
}

actors::UnitRef ref_of(const schema::QueueUnit& u) {
  return {u.metadata.namespace_, u.metadata.name, u.metadata.uid, "team", "team"};
}

actors::Decision admit(const schema::QueueUnit& u, const schema::Queue& q, int64_t now) {
  actors::Decision d;
  d.target = ref_of(u);
  d.kind = DecisionKind::kAdmit;
  d.status_patch = actors::admission_patch(u, q, 1, now);
  d.spec_queue_patch = q.metadata.name;
  d.events.push_back({actors::object_ref_of(u), false, "Scheduled", "dequeue success"});
  return d;
}

schema::Queue queue_named(const SimulatedCluster& sim, const std::string& name) {
  return std::get<schema::Queue>(*sim.get(ObjectKind::kQueue, "koord-queue", name));
}

schema::QueueUnit current(const SimulatedCluster& sim, const schema::QueueUnit& u) {
  return std::get<schema::QueueUnit>(*sim.get(ObjectKind::kQueueUnit, u.metadata.namespace_, u.metadata.name));
}

// Waits for the first unit of the tiny scenario's `train` class.
schema::QueueUnit arrived_unit(SimulatedCluster& sim) {
  for (int64_t t = kStart; t < kStart + 600 * kSec; t += kSec) {
    const auto events = sim.advance_to(t);
    if (const auto* u = first_unit(events)) return *u;
  }
  ADD_FAILURE() << "no unit arrived";
  return {};
}

// ---------------------------------------------------------------------------------------------
// Scenario files

TEST(SimulatorScenario, the_default_scenario_loads) {
  const auto s = load_scenario("default");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->name, "default");
  EXPECT_GE(s->job_classes.size(), 5u);
}

TEST(SimulatorScenario, a_file_with_the_default_text_loads_to_the_same_scenario) {
  testing::TempDir dir;
  const auto path = (dir / "default.yaml").string();
  std::ofstream(path) << default_scenario_yaml();
  const auto from_file = load_scenario(path);
  ASSERT_TRUE(from_file.ok()) << from_file.message();
  EXPECT_EQ(*from_file, *load_scenario("default"));
}

TEST(SimulatorScenario, every_field_of_a_file_is_read) {
  testing::TempDir dir;
  const auto path = (dir / "s.yaml").string();
  std::ofstream(path) << R"yaml(name: s
queueNamespace: queues
conflictPercent: 2.5
jobExtension:
  startDelay: {min: 1s, max: 3s}
  deleteAfter: 1m
quotas:
  - name: root-a
    namespace: ops
    max: {cpu: "8", memory: 16Gi}
    min: {cpu: "4"}
    labels: {tier: gold}
    annotations: {quota-koord-queue-enable: "true"}
  - name: leaf
    parent: root-a
    policy: Block
    max: {cpu: 500m}
admissionChecks:
  - name: prov
    readyAfter: 5s
    rejectPercent: 10
queues:
  - name: leaf
    annotations: {koord-queue/max-depth: "3"}
    admissionChecks:
      - name: prov
        matchLabels: {needs: prov}
jobClasses:
  - name: etl
    kind: Job
    namespaces: [a, b]
    quota: leaf
    priorities: [0, 7]
    priorityClassName: low
    labels: {needs: prov}
    request: {cpu: 100m}
    arrivalsPerMinute: 0.5
    maxUnits: 3
    runTime: {mean: 40s, min: 5s, max: 2m}
    startDelay: 1s
    failurePercent: 1
    startTimeoutPercent: 2
    inactivePercent: 3
    deactivatePercent: 4
    deactivateAfter: 9s
    reactivateAfter: {min: 1s, max: 2s}
    maximumExecutionTimeSeconds: 60
  - name: dist
    kind: CustomJob
    apiVersion: example.com/v1
    namespaces: [a]
    quota: leaf
    podSets:
      - name: worker
        replicas: {min: 2, max: 5}
        resources: {cpu: "1"}
    arrivalsPerMinute: 3
    runTime: 10s
)yaml";
  const auto s = load_scenario(path);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->queue_namespace, "queues");
  EXPECT_EQ(s->conflict_ppm, 25'000);
  EXPECT_EQ(s->job_extension.start_delay,
            (DurationDistribution{DurationDistribution::Shape::kUniform, 1 * kSec, 3 * kSec, 0}));
  EXPECT_EQ(s->job_extension.delete_after.min_nanos, 60 * kSec);
  ASSERT_EQ(s->quotas.size(), 2u);
  EXPECT_EQ(s->quotas[0].namespace_, "ops");
  EXPECT_EQ(s->quotas[0].max, (schema::ResourceList{{"cpu", "8"}, {"memory", "16Gi"}}));
  EXPECT_EQ(s->quotas[0].labels.at("tier"), "gold");
  EXPECT_EQ(s->quotas[1].parent, "root-a");
  EXPECT_EQ(s->quotas[1].policy, "Block");
  EXPECT_EQ(s->quotas[1].namespace_, "default");
  EXPECT_EQ(s->admission_checks[0].reject_ppm, 100'000);
  EXPECT_EQ(s->queues[0].admission_checks[0].match_labels.at("needs"), "prov");
  const auto& etl = s->job_classes[0];
  EXPECT_EQ(etl.api_version, "batch/v1");
  EXPECT_EQ(etl.namespaces, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(etl.priorities, (std::vector<int32_t>{0, 7}));
  EXPECT_EQ(etl.arrivals_per_minute_ppm, 500'000);
  EXPECT_EQ(etl.max_units, 3);
  EXPECT_EQ(etl.run_time,
            (DurationDistribution{DurationDistribution::Shape::kExponential, 5 * kSec, 120 * kSec, 40 * kSec}));
  EXPECT_EQ(etl.start_delay->min_nanos, kSec);
  EXPECT_EQ(etl.deactivate_ppm, 40'000);
  EXPECT_EQ(etl.maximum_execution_time_seconds, 60);
  const auto& dist = s->job_classes[1];
  EXPECT_EQ(dist.api_version, "example.com/v1");
  EXPECT_EQ(dist.pod_sets[0].replicas, (ReplicaRange{2, 5}));
  EXPECT_EQ(dist.max_units, 50);
}

struct BadScenario {
  std::string yaml;
  std::string expected;  // part of the message
};

class SimulatorScenarioErrors : public ::testing::TestWithParam<BadScenario> {};

TEST_P(SimulatorScenarioErrors, name_the_line_the_key_and_the_problem) {
  const std::string prefix = R"yaml(quotas:
  - name: q
    max: {cpu: "4"}
)yaml";
  const auto s = parse_scenario(prefix + GetParam().yaml, "bad.yaml");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(GetParam().expected), std::string::npos) << s.message();
}

constexpr char kClass[] = R"yaml(jobClasses:
  - name: c
    kind: Job
    namespaces: [n]
    quota: q
    request: {cpu: "1"}
    runTime: 10s
)yaml";

INSTANTIATE_TEST_SUITE_P(
    Cases, SimulatorScenarioErrors,
    ::testing::Values(
        BadScenario{std::string(kClass) + "    arrivalsPerMinute: 1\n    maxUnit: 3\n",
                    "bad.yaml:12: jobClasses[0]: unknown key \"maxUnit\""},
        BadScenario{std::string(kClass) + "    arrivalsPerMinute: -1\n",
                    "bad.yaml:11: jobClasses[0].arrivalsPerMinute: must be a decimal ≥ 0"},
        BadScenario{std::string(kClass) + "    arrivalsPerMinute: 1\n    failurePercent: 120\n",
                    "bad.yaml:12: jobClasses[0].failurePercent: must be a percentage in [0, 100]"},
        BadScenario{std::string(kClass), "bad.yaml:5: jobClasses[0].arrivalsPerMinute: is required"},
        BadScenario{"  - name: r\n    max: {cpu: 4x}\n" + std::string(kClass) + "    arrivalsPerMinute: 1\n",
                    "bad.yaml:5: quotas[1].max.cpu: invalid quantity \"4x\""},
        BadScenario{"  - name: r\n    max:\n      cpu: \"1\"\n      memory: -1Gi\n" + std::string(kClass) +
                        "    arrivalsPerMinute: 1\n",
                    "bad.yaml:7: quotas[1].max.memory: must not be negative, got \"-1Gi\""},
        BadScenario{"  - name: r\n    parent: nowhere\n" + std::string(kClass) + "    arrivalsPerMinute: 1\n",
                    "quotas[1].parent: unknown parent quota nowhere"},
        BadScenario{"  - name: a\n    parent: b\n  - name: b\n    parent: a\n" + std::string(kClass) +
                        "    arrivalsPerMinute: 1\n",
                    "quotas[1].parent: the parent chain of a is a cycle"},
        BadScenario{"queues:\n  - name: q\n    admissionChecks: [{name: nope}]\n" + std::string(kClass) +
                        "    arrivalsPerMinute: 1\n",
                    "bad.yaml:6: queues[0].admissionChecks[0].name: no admission-check controller nope"},
        BadScenario{std::string(kClass) + "    arrivalsPerMinute: 1\n    startDelay: soon\n",
                    "bad.yaml:12: jobClasses[0].startDelay: must be a duration such as 90s or 2m, got \"soon\""},
        BadScenario{std::string(kClass) + "    arrivalsPerMinute: 1\n    deactivateAfter: {min: 5s, max: 1s}\n",
                    "jobClasses[0].deactivateAfter: max must not be less than min"},
        BadScenario{std::string(kClass) + "    arrivalsPerMinute: 1\n    quota: q\n", "duplicate key"},
        BadScenario{"jobClasses:\n  - name: c\n    kind: Job\n    namespaces: [n]\n    quota: other\n"
                    "    request: {cpu: \"1\"}\n    runTime: 10s\n    arrivalsPerMinute: 1\n",
                    "bad.yaml:8: jobClasses[0].quota: unknown quota other"},
        BadScenario{"jobClasses:\n  - name: c\n    kind: Frobnicator\n    namespaces: [n]\n    quota: q\n"
                    "    request: {cpu: \"1\"}\n    runTime: 10s\n    arrivalsPerMinute: 1\n",
                    "jobClasses[0].apiVersion: is required for kind Frobnicator"},
        BadScenario{std::string(kClass) + "    arrivalsPerMinute: 1\n    podSets: [{name: w, resources: {cpu: 1}}]\n",
                    "jobClasses[0]: needs either podSets or request (not both)"},
        BadScenario{"jobClasses: [\n", "bad.yaml:"}));

TEST(SimulatorScenario, the_example_of_the_format_documentation_loads) {
  std::ifstream in(std::string(KOORDQ_DOCS_DIR) + "/scenario.md");
  ASSERT_TRUE(in) << "docs/scenario.md";
  const std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t example = doc.find("## Example");
  ASSERT_NE(example, std::string::npos);
  const size_t begin = doc.find("```yaml\n", example) + 8;
  const size_t end = doc.find("```", begin);
  const auto s = parse_scenario(doc.substr(begin, end - begin), "docs/scenario.md");
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(s->quotas.size(), 3u);
  EXPECT_EQ(s->job_classes.size(), 2u);
}

TEST(SimulatorScenario, a_missing_file_is_named) {
  const auto s = load_scenario("/nonexistent/scenario.yaml");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot read scenario file /nonexistent/scenario.yaml"), std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// Randomness

TEST(SimulatorRandom, negative_log_is_exact_at_the_ends_and_monotonic) {
  EXPECT_EQ(negative_log_q32(UINT64_MAX), 0u);
  const double ln2_63 = 43.66827237527655;  // -ln(2^-63)
  EXPECT_NEAR(static_cast<double>(negative_log_q32(0)) / 4294967296.0, ln2_63, 1e-6);
  EXPECT_NEAR(static_cast<double>(negative_log_q32(UINT64_MAX / 2)) / 4294967296.0, 0.6931471805599453, 1e-6);
  uint64_t previous = UINT64_MAX;
  for (uint64_t x = 1; x < (uint64_t{1} << 63); x = x * 3 + 1) {
    EXPECT_LE(negative_log_q32(x), previous);
    previous = negative_log_q32(x);
  }
}

TEST(SimulatorRandom, draws_stay_in_range_and_exponentials_have_their_mean) {
  SimRandom r(42);
  int64_t sum = 0;
  constexpr int kDraws = 200'000;
  for (int i = 0; i < kDraws; ++i) {
    const int64_t u = r.uniform(-3, 5);
    ASSERT_GE(u, -3);
    ASSERT_LE(u, 5);
    sum += r.exponential(1'000'000);
  }
  EXPECT_NEAR(static_cast<double>(sum) / kDraws, 1'000'000.0, 10'000.0);
  const std::string uuid = r.uuid();
  EXPECT_EQ(uuid.size(), 36u);
  EXPECT_EQ(uuid[14], '4');
}

TEST(SimulatorRandom, one_seed_gives_one_sequence) {
  SimRandom a(7), b(7);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.exponential(12345), b.exponential(12345));
}

// ---------------------------------------------------------------------------------------------
// The cluster on its own

TEST(SimulatedCluster, start_creates_the_default_tree_with_both_policies) {
  SimulatedCluster sim(*load_scenario("default"), 1, kStart);
  const auto events = sim.advance_to(kStart);
  std::map<std::string, std::string> parent;
  std::map<std::string, schema::Queue> queues;
  for (const auto& e : events) {
    EXPECT_EQ(e.event.type, WatchEventType::kAdded);
    EXPECT_EQ(e.time, kStart);
    if (const auto* q = std::get_if<schema::ElasticQuota>(&*e.event.object)) {
      const auto it = q->metadata.labels.find("quota.scheduling.koordinator.sh/parent");
      parent[q->metadata.name] = it == q->metadata.labels.end() ? "" : it->second;
    } else if (const auto* q = std::get_if<schema::Queue>(&*e.event.object)) {
      queues[q->metadata.name] = *q;
    }
  }
  int deepest = 0;
  for (const auto& [name, p] : parent) {
    int depth = 1;
    for (std::string at = p; !at.empty(); at = parent.at(at)) ++depth;
    deepest = std::max(deepest, depth);
  }
  EXPECT_EQ(deepest, 3);
  std::set<std::string> policies;
  bool preemption = false, max_depth = false, checks = false;
  for (const auto& [name, q] : queues) {
    policies.insert(q.spec.queue_policy);
    const auto& a = q.metadata.annotations;
    preemption |= a.count("koord-queue/wait-for-pods-running") && a.count("koord-queue/enable-queueunit-preemption");
    max_depth |= a.count("koord-queue/max-depth") > 0;
    checks |= !q.spec.admission_checks.empty();
    EXPECT_EQ(q.metadata.namespace_, "koord-queue");
    EXPECT_EQ(q.spec.priority, 1000);
  }
  EXPECT_EQ(policies, (std::set<std::string>{"Block", "Priority"}));
  EXPECT_TRUE(preemption);
  EXPECT_TRUE(max_depth);
  EXPECT_TRUE(checks);
}

TEST(SimulatedCluster, units_arrive_with_whole_second_timestamps_and_rising_revisions) {
  SimulatedCluster sim(*load_scenario("default"), 3, kStart);
  const auto events = sim.advance_to(kStart + 120 * kSec);
  uint64_t last_rv = 0;
  int64_t last_time = kStart;
  std::set<std::string> uids;
  size_t units = 0;
  for (const auto& e : events) {
    const auto& meta = schema::meta_of(*e.event.object);
    const uint64_t rv = std::stoull(meta.resource_version);
    EXPECT_GT(rv, last_rv);
    EXPECT_GE(e.time, last_time);
    last_rv = rv;
    last_time = e.time;
    EXPECT_EQ(*meta.creation_timestamp % kSec, 0);
    if (e.event.type != WatchEventType::kAdded) continue;  // deactivations and reactivations
    EXPECT_TRUE(uids.insert(meta.uid).second);
    if (const auto* u = std::get_if<schema::QueueUnit>(&*e.event.object)) {
      ++units;
      EXPECT_TRUE(u->spec.consumer_ref.has_value());
      EXPECT_FALSE(u->metadata.labels.at("quota.scheduling.koordinator.sh/name").empty());
      EXPECT_FALSE(u->spec.resource.empty());
    }
  }
  // About 3 per second at speed 1.
  EXPECT_GT(units, 150u);
  EXPECT_LT(units, 600u);
  EXPECT_EQ(sim.stats().arrivals, units);
  EXPECT_EQ(sim.resource_version(), std::to_string(last_rv));
}

TEST(SimulatedCluster, same_seed_gives_the_same_events_and_another_seed_others) {
  auto run = [](uint64_t seed) {
    SimulatedCluster sim(*load_scenario("default"), seed, kStart);
    std::vector<TimedEvent> all;
    for (int64_t t = kStart; t <= kStart + 300 * kSec; t += 7 * kSec) {
      auto e = sim.advance_to(t);
      all.insert(all.end(), e.begin(), e.end());
    }
    return trace_of(all);
  };
  EXPECT_EQ(run(11), run(11));
  EXPECT_NE(run(11), run(12));
}

TEST(SimulatedCluster, advancing_in_steps_or_at_once_gives_the_same_events) {
  SimulatedCluster a(tiny(), 5, kStart), b(tiny(), 5, kStart);
  std::vector<TimedEvent> stepped;
  for (int64_t t = kStart; t <= kStart + 200 * kSec; t += kSec / 3) {
    auto e = a.advance_to(t);
    stepped.insert(stepped.end(), e.begin(), e.end());
  }
  EXPECT_EQ(trace_of(stepped), trace_of(b.advance_to(kStart + 200 * kSec)));
}

TEST(SimulatedCluster, next_event_time_is_where_the_next_event_happens) {
  SimulatedCluster sim(tiny(), 9, kStart);
  sim.advance_to(kStart);
  const auto next = sim.next_event_time();
  ASSERT_TRUE(next.has_value());
  EXPECT_TRUE(sim.advance_to(*next - 1).empty());
  const auto events = sim.advance_to(*next);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front().time, *next);
}

TEST(SimulatedCluster, speed_divides_the_simulators_intervals) {
  SimulatedCluster normal(tiny(), 4, kStart), doubled(tiny(), 4, kStart, 2 * kMillion);
  normal.advance_to(kStart);
  doubled.advance_to(kStart);
  const int64_t gap = *normal.next_event_time() - kStart;
  EXPECT_NEAR(static_cast<double>(*doubled.next_event_time() - kStart), gap / 2.0, 1.0);
}

TEST(SimulatedCluster, a_class_at_max_units_skips_arrivals) {
  Scenario s = tiny();
  s.job_classes[0].max_units = 2;
  s.job_classes[0].arrivals_per_minute_ppm = 60 * kMillion;
  SimulatedCluster sim(s, 1, kStart);
  sim.advance_to(kStart + 60 * kSec);
  EXPECT_EQ(sim.stats().arrivals, 2u);
  EXPECT_GT(sim.stats().arrivals_skipped, 10u);
}

// ---------------------------------------------------------------------------------------------
// Writes

TEST(SimulatedClusterWrites, a_dequeued_unit_runs_then_succeeds_and_is_deleted) {
  SimulatedCluster sim(tiny(), 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  const int64_t t = sim.now();
  const auto w = sim.apply_decision(10, 0, admit(u, queue_named(sim, "team"), t), t);
  ASSERT_EQ(w.outcomes.size(), 3u);
  EXPECT_EQ(w.outcomes[0].write_kind, actors::WriteKind::kStatusPatch);
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kSuccess);
  EXPECT_EQ(w.outcomes[0].decision_seq, 10u);
  EXPECT_EQ(w.outcomes[1].write_kind, actors::WriteKind::kSpecQueuePatch);
  EXPECT_EQ(w.outcomes[2].write_kind, actors::WriteKind::kEvent);
  ASSERT_EQ(w.events.size(), 2u);
  EXPECT_EQ(std::get<schema::QueueUnit>(*w.events[0].event.object).status.phase, "Dequeued");
  EXPECT_EQ(std::get<schema::QueueUnit>(*w.events[0].event.object).metadata.resource_version,
            w.outcomes[0].resource_version);
  EXPECT_EQ(std::get<schema::QueueUnit>(*w.events[1].event.object).spec.queue, "team");

  const auto later = sim.advance_to(t + 120 * kSec);
  const auto versions = versions_of(later, u.metadata.name);
  std::vector<std::string> phases;
  for (const auto& v : versions) {
    if (phases.empty() || phases.back() != v.status.phase) phases.push_back(v.status.phase);
  }
  EXPECT_EQ(phases, (std::vector<std::string>{"Dequeued", "Running", "Succeed"}));
  const auto running =
      std::find_if(versions.begin(), versions.end(), [](const auto& v) { return v.status.phase == "Running"; });
  ASSERT_NE(running, versions.end());
  EXPECT_EQ(running->status.admissions[0].running, 4);
  EXPECT_EQ(running->status.pod_state, (schema::PodState{4, 0}));
  EXPECT_GE(versions.front().status.admissions[0].running, 1);  // the first pods to start
  const auto deleted =
      std::find_if(later.begin(), later.end(), [](const auto& e) { return e.event.type == WatchEventType::kDeleted; });
  ASSERT_NE(deleted, later.end());
  EXPECT_EQ(sim.stats().succeeded, 1u);
  EXPECT_EQ(sim.stats().started, 1u);
  EXPECT_EQ(sim.stats().admissions, 1u);
  EXPECT_EQ(sim.stats().deleted, 1u);
}

TEST(SimulatedClusterWrites, a_class_with_failures_ends_failed) {
  Scenario s = tiny();
  s.job_classes[0].failure_ppm = kMillion;
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  const auto versions = versions_of(sim.advance_to(sim.now() + 60 * kSec), u.metadata.name);
  ASSERT_FALSE(versions.empty());
  EXPECT_EQ(versions.back().status.phase, "Failed");
  EXPECT_EQ(versions.back().status.pod_state, (schema::PodState{0, 0}));
}

TEST(SimulatedClusterWrites, a_stale_resource_version_is_a_conflict) {
  SimulatedCluster sim(tiny(), 1, kStart);
  schema::QueueUnit u = arrived_unit(sim);
  auto d = admit(u, queue_named(sim, "team"), sim.now());
  d.status_patch->resource_version = "1";
  const auto w = sim.apply_decision(3, 2, d, sim.now());
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kConflict);
  EXPECT_EQ(w.outcomes[0].http_code, 409);
  EXPECT_EQ(w.outcomes[0].decision_index, 2u);
  EXPECT_EQ(current(sim, u).status.phase, "");
  EXPECT_EQ(sim.stats().precondition_conflicts, 1u);
}

TEST(SimulatedClusterWrites, injected_conflicts_answer_409_without_writing) {
  Scenario s = tiny();
  s.conflict_ppm = kMillion;
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  const auto w = sim.apply_decision(3, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kConflict);
  EXPECT_EQ(current(sim, u).status.phase, "");
  EXPECT_EQ(sim.stats().conflicts_injected, 1u);
}

TEST(SimulatedClusterWrites, writes_to_a_deleted_unit_are_not_found) {
  SimulatedCluster sim(tiny(), 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  sim.advance_to(sim.now() + 200 * kSec);
  ASSERT_FALSE(sim.get(ObjectKind::kQueueUnit, u.metadata.namespace_, u.metadata.name).has_value());
  actors::Decision d;
  d.target = ref_of(u);
  d.status_patch = actors::message_patch(u, "late", sim.now());
  d.status_patch->resource_version.clear();
  d.spec_queue_patch = "team";
  const auto w = sim.apply_decision(9, 0, d, sim.now());
  ASSERT_EQ(w.outcomes.size(), 2u);
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kNotFound);
  EXPECT_EQ(w.outcomes[0].http_code, 404);
  EXPECT_EQ(w.outcomes[1].result, OutcomeResult::kNotFound);
  EXPECT_TRUE(w.events.empty());
}

TEST(SimulatedClusterWrites, an_unchanged_object_is_not_written_again) {
  SimulatedCluster sim(tiny(), 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  actors::Decision d;
  d.target = ref_of(u);
  d.status_patch = actors::StatusPatch{};
  d.status_patch->resource_version = u.metadata.resource_version;
  const auto w = sim.apply_decision(1, 0, d, sim.now());
  EXPECT_EQ(w.outcomes[0].result, OutcomeResult::kSuccess);
  EXPECT_EQ(w.outcomes[0].resource_version, u.metadata.resource_version);
  EXPECT_TRUE(w.events.empty());
}

TEST(SimulatedClusterWrites, reclaimed_replicas_are_given_back_and_a_unit_left_with_none_is_enqueued) {
  Scenario s = tiny();
  s.job_classes[0].start_delay = DurationDistribution{DurationDistribution::Shape::kFixed, 100 * kSec, 0, 0};
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());

  // Mark one replica, as a preemption victim (behaviour.md §11).
  auto victim = [&](int64_t replicas) {
    const schema::QueueUnit now = current(sim, u);
    actors::Decision d;
    d.target = ref_of(now);
    d.kind = DecisionKind::kPreempt;
    d.status_patch = actors::message_patch(now, actors::kMessageReclaim, sim.now());
    auto admissions = now.status.admissions;
    admissions[0].reclaim_state = schema::ReclaimState{replicas};
    d.status_patch->admissions = admissions;
    EXPECT_EQ(sim.apply_decision(2, 0, d, sim.now()).outcomes[0].result, OutcomeResult::kSuccess);
  };
  victim(1);
  auto versions = versions_of(sim.advance_to(sim.now() + 5 * kSec), u.metadata.name);
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_EQ(versions[0].status.admissions[0].replicas, 3);
  EXPECT_FALSE(versions[0].status.admissions[0].reclaim_state.has_value());
  EXPECT_EQ(versions[0].status.phase, "Dequeued");

  victim(3);
  versions = versions_of(sim.advance_to(sim.now() + 5 * kSec), u.metadata.name);
  ASSERT_EQ(versions.size(), 1u);
  EXPECT_TRUE(versions[0].status.admissions.empty());
  EXPECT_EQ(versions[0].status.phase, "Enqueued");
  EXPECT_EQ(versions[0].status.message, "Enqueued after preempted");
  EXPECT_EQ(sim.stats().reclaims, 2u);
  EXPECT_EQ(sim.stats().reclaimed_replicas, 4u);
  // The start that was due before the reclaim does nothing.
  EXPECT_TRUE(versions_of(sim.advance_to(sim.now() + 200 * kSec), u.metadata.name).empty());
}

TEST(SimulatedClusterWrites, a_reserved_unit_has_its_checks_marked_ready) {
  Scenario s = tiny();
  s.job_classes[1].arrivals_per_minute_ppm = 6 * kMillion;
  s.job_classes[0].arrivals_per_minute_ppm = 0;
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  const auto d = admit(u, queue_named(sim, "checked"), sim.now());
  ASSERT_EQ(d.status_patch->phase, "Reserved");
  sim.apply_decision(1, 0, d, sim.now());
  const auto versions = versions_of(sim.advance_to(sim.now() + 5 * kSec), u.metadata.name);
  ASSERT_EQ(versions.size(), 1u);
  ASSERT_EQ(versions[0].status.admission_checks.size(), 1u);
  EXPECT_EQ(versions[0].status.admission_checks[0].state, "Ready");
  EXPECT_EQ(*versions[0].status.admission_checks[0].last_transition_time % kSec, 0);
  EXPECT_EQ(versions[0].status.phase, "Reserved");  // koordq moves it on (§10)
  EXPECT_EQ(sim.stats().checks_ready, 1u);
}

TEST(SimulatedClusterWrites, a_deactivated_unit_is_suspended_and_later_reactivated) {
  Scenario s = tiny();
  s.job_classes[0].deactivate_ppm = kMillion;
  s.job_classes[0].deactivate_after = {DurationDistribution::Shape::kFixed, 20 * kSec, 0, 0};
  s.job_classes[0].reactivate_after = {DurationDistribution::Shape::kFixed, 50 * kSec, 0, 0};
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  const auto versions = versions_of(sim.advance_to(sim.now() + 25 * kSec), u.metadata.name);
  ASSERT_GE(versions.size(), 2u);
  const auto& deactivated = versions[versions.size() - 2];
  EXPECT_EQ(deactivated.spec.active, false);
  const auto& suspended = versions.back();
  EXPECT_EQ(suspended.status.phase, "Enqueued");
  EXPECT_TRUE(suspended.status.admissions.empty());
  const auto again = versions_of(sim.advance_to(sim.now() + 60 * kSec), u.metadata.name);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].spec.active, true);
  EXPECT_EQ(sim.stats().suspensions, 1u);
}

TEST(SimulatedClusterWrites, the_maximum_execution_time_message_stops_a_running_job) {
  Scenario s = tiny();
  s.job_classes[0].run_time = {DurationDistribution::Shape::kFixed, 600 * kSec, 0, 0};
  SimulatedCluster sim(s, 1, kStart);
  const schema::QueueUnit u = arrived_unit(sim);
  sim.apply_decision(1, 0, admit(u, queue_named(sim, "team"), sim.now()), sim.now());
  sim.advance_to(sim.now() + 30 * kSec);
  ASSERT_EQ(current(sim, u).status.phase, "Running");
  actors::Decision d;
  d.target = ref_of(u);
  d.kind = DecisionKind::kMaxExecExceeded;
  d.status_patch = actors::message_patch(current(sim, u), actors::kMessageMaxExec, sim.now());
  sim.apply_decision(2, 0, d, sim.now());
  sim.advance_to(sim.now() + 5 * kSec);
  EXPECT_EQ(current(sim, u).status.phase, "Failed");
  EXPECT_EQ(sim.stats().evictions, 1u);
}

TEST(SimulatedClusterWrites, queue_writes_create_patch_publish_and_delete) {
  SimulatedCluster sim(tiny(), 1, kStart);
  sim.advance_to(kStart);
  actors::Decision d;
  d.target = actors::QueueRef{"team"};
  d.kind = DecisionKind::kQueueCreate;
  schema::Queue q;
  q.spec.queue_policy = "Priority";
  d.queue_write = q;
  EXPECT_EQ(sim.apply_decision(1, 0, d, kStart).outcomes[0].result, OutcomeResult::kConflict);

  d.target = actors::QueueRef{"extra"};
  auto w = sim.apply_decision(1, 1, d, kStart);
  EXPECT_EQ(w.outcomes[0].http_code, 201);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(w.events[0].event.type, WatchEventType::kAdded);
  EXPECT_EQ(schema::meta_of(*w.events[0].event.object).namespace_, "koord-queue");

  d.kind = DecisionKind::kPublishQueueItems;
  d.queue_write = schema::QueueItemDetails{{{"a", "ml", std::nullopt, 1}}, {}};
  w = sim.apply_decision(2, 0, d, kStart);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(std::get<schema::Queue>(*w.events[0].event.object).status.queue_item_details->active.size(), 1u);

  d.kind = DecisionKind::kQueuePatch;
  d.queue_write = actors::QueuePatch{"Block", {{"l", "v"}}, {}};
  w = sim.apply_decision(3, 0, d, kStart);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(std::get<schema::Queue>(*w.events[0].event.object).spec.queue_policy, "Block");

  d.kind = DecisionKind::kQueueDelete;
  d.queue_write = actors::QueueDelete{};
  w = sim.apply_decision(4, 0, d, kStart);
  ASSERT_EQ(w.events.size(), 1u);
  EXPECT_EQ(w.events[0].event.type, WatchEventType::kDeleted);
  EXPECT_EQ(sim.apply_decision(5, 0, d, kStart).outcomes[0].result, OutcomeResult::kNotFound);
}

TEST(SimulatedClusterWrites, events_are_accepted_and_counted_but_not_watched) {
  SimulatedCluster sim(tiny(), 1, kStart);
  sim.advance_to(kStart);
  actors::Decision d;
  d.target = actors::QueueRef{"team"};
  d.kind = DecisionKind::kAddQueueFail;
  d.events.resize(2);
  const auto w = sim.apply_decision(1, 0, d, kStart);
  ASSERT_EQ(w.outcomes.size(), 2u);
  EXPECT_EQ(w.outcomes[1].write_index, 1u);
  EXPECT_EQ(w.outcomes[1].http_code, 201);
  EXPECT_TRUE(w.events.empty());
  EXPECT_EQ(sim.stats().events_recorded, 2u);
}

// ---------------------------------------------------------------------------------------------
// Restart

TEST(SimulatedClusterRestore, continues_from_the_latest_state_without_duplicates) {
  SimulatedCluster first(tiny(), 1, kStart);
  const schema::QueueUnit u = arrived_unit(first);
  first.apply_decision(1, 0, admit(u, queue_named(first, "team"), first.now()), first.now());
  first.advance_to(first.now() + 10 * kSec);
  ASSERT_EQ(current(first, u).status.phase, "Running");

  std::vector<schema::WatchedObject> latest;
  for (auto kind : {ObjectKind::kElasticQuota, ObjectKind::kQueue, ObjectKind::kQueueUnit}) {
    for (auto& o : first.list(kind)) latest.push_back(std::move(o));
  }
  const int64_t restart = first.now() + 3 * kSec;
  SimulatedCluster second(tiny(), 1, kStart);
  second.restore(latest, restart, std::stoull(first.resource_version()) + 5);
  const auto events = second.advance_to(restart + 100 * kSec);

  std::set<std::string> names;
  for (const auto& o : latest) names.insert(object_key(o));
  for (const auto& e : events) {
    EXPECT_FALSE(e.event.type == WatchEventType::kAdded && names.count(object_key(*e.event.object)))
        << object_key(*e.event.object) << " was created again";
    EXPECT_GT(std::stoull(schema::meta_of(*e.event.object).resource_version),
              std::stoull(first.resource_version()) + 5);
  }
  // The running job finishes after the restart.
  const auto versions = versions_of(events, u.metadata.name);
  ASSERT_FALSE(versions.empty());
  EXPECT_EQ(versions.front().status.phase, "Succeed");
  EXPECT_GT(second.stats().arrivals, 0u);
}

TEST(SimulatedClusterRestore, creates_scenario_objects_the_state_lacks) {
  SimulatedCluster sim(tiny(), 1, kStart);
  sim.restore({}, kStart);
  const auto events = sim.advance_to(kStart);
  EXPECT_EQ(
      std::count_if(events.begin(), events.end(), [](const auto& e) { return e.event.kind() == ObjectKind::kQueue; }),
      2);
}

// ---------------------------------------------------------------------------------------------
// The default scenario driven by the decision logic, as `serve --simulate --simulate-clock=virtual`
// drives it: cluster events → apply → decide → round applied → writes answered → …

class ClosedLoop {
 public:
  explicit ClosedLoop(uint64_t seed) : sim_(*load_scenario("default"), seed, kStart) {}

  void run_for(int64_t duration) {
    const int64_t end = kStart + duration;
    int64_t now = kStart;
    while (true) {
      int64_t next = *sim_.next_event_time();
      if (const auto deadline = s_.next_deadline()) next = std::min(next, *deadline);
      if (next > end) break;
      now = std::max(now, next);
      auto events = sim_.advance_to(now);
      // A batch, its round, and the batches the round's writes cause.
      for (int rounds = 0; rounds < 4; ++rounds) {
        apply(events);
        events = round(now);
        if (events.empty()) break;
      }
    }
  }

  const Stats& stats() const { return sim_.stats(); }
  const std::map<DecisionKind, int>& decisions() const { return decisions_; }
  const std::string& trace() const { return trace_; }

 private:
  void apply(const std::vector<TimedEvent>& events) {
    for (const auto& e : events) {
      ++seq_;
      s_.advance_to(e.time);
      s_.apply_object(*e.event.object, e.event.type == WatchEventType::kDeleted);
      trace_ += e.event.raw_json;
    }
  }

  std::vector<TimedEvent> round(int64_t now) {
    ++seq_;
    s_.advance_to(now);
    const auto ds = s_.decide();
    ++seq_;
    s_.apply_round(seq_, ds);
    const uint64_t round_seq = seq_;
    std::vector<TimedEvent> caused;
    for (uint32_t i = 0; i < ds.size(); ++i) {
      ++decisions_[ds[i].kind];
      auto w = sim_.apply_decision(round_seq, i, ds[i], now);
      for (const auto& o : w.outcomes) {
        ++seq_;
        s_.apply_outcome(o);
      }
      caused.insert(caused.end(), w.events.begin(), w.events.end());
    }
    return caused;
  }

  SimulatedCluster sim_;
  actors::Scheduler s_;
  uint64_t seq_ = 0;
  std::map<DecisionKind, int> decisions_;
  std::string trace_;
};

TEST(SimulatorDefaultScenario, admits_a_few_units_a_second_with_backoff_and_preemption_visible) {
  ClosedLoop loop(1);
  constexpr int64_t kMinutes = 2;
  loop.run_for(kMinutes * 60 * kSec);
  const Stats& st = loop.stats();
  const auto& d = loop.decisions();
  auto count = [&](DecisionKind k) { return d.count(k) ? d.at(k) : 0; };
  const double per_second = static_cast<double>(st.admissions) / (kMinutes * 60);
  EXPECT_GT(per_second, 1.0);
  EXPECT_LT(per_second, 10.0);
  EXPECT_GT(count(DecisionKind::kFail), 100);  // over quota: backoff
  EXPECT_GT(count(DecisionKind::kPreempt), 0);
  EXPECT_GT(count(DecisionKind::kReserve), 0);
  EXPECT_GT(count(DecisionKind::kAdmissionChecksReady), 0);
  EXPECT_GT(st.reclaims, 0u);
  EXPECT_GT(st.succeeded, 100u);
  EXPECT_GT(st.failed, 0u);
  EXPECT_GT(st.deleted, 100u);
  EXPECT_GT(st.conflicts_injected, 0u);
  std::string summary = "arrivals=" + std::to_string(st.arrivals) + " admissions=" + std::to_string(st.admissions) +
                        " reclaims=" + std::to_string(st.reclaims) + " decisions:";
  for (const auto& [k, n] : d) summary += " " + std::to_string(static_cast<int>(k)) + "=" + std::to_string(n);
  RecordProperty("summary", summary);
}

TEST(SimulatorDefaultScenario, one_seed_gives_one_run) {
  ClosedLoop a(5), b(5);
  a.run_for(60 * kSec);
  b.run_for(60 * kSec);
  EXPECT_EQ(a.trace(), b.trace());
  EXPECT_GT(a.trace().size(), 10'000u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube::sim
