// The simulator's scenario files (kube/simulator, docs/scenario.md): the default scenario, every
// field of a file, errors that name the line, the key and the problem, and the format document's
// example.
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "kube/simulator/simulated_cluster.hpp"
#include "tests/support/simulator_fixture.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::kube::sim {
namespace KOORDQ_TEST_LOCAL {

using namespace fixture;

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

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube::sim
