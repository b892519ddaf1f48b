// What the cluster simulator plays (behaviour.md §21 `--scenario`): the ElasticQuota tree, the
// Queues an operator would create, the admission-check controllers, and the job classes whose
// QueueUnits arrive over time. Loaded from YAML (docs/scenario.md) or the built-in `default`.
// Times are nanoseconds of simulator time before `--simulate-speed` divides them; probabilities
// are parts per million; quantities are kept as written.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "schema/object_meta.hpp"
#include "schema/resource_list.hpp"

namespace koordq::kube::sim {

inline constexpr int64_t kMillion = 1'000'000;
// The label naming the job class of every QueueUnit the simulator creates; a restart reads it back.
inline constexpr char kJobClassLabel[] = "sim.koordq.io/job-class";

// A duration drawn per use: fixed, uniform in [min, max], or exponential with `mean`, clamped
// to [min, max] (max 0: no cap).
struct DurationDistribution {
  enum class Shape { kFixed, kUniform, kExponential };
  Shape shape = Shape::kFixed;
  int64_t min_nanos = 0;  // the value, when fixed
  int64_t max_nanos = 0;
  int64_t mean_nanos = 0;

  bool operator==(const DurationDistribution&) const = default;
};

struct ReplicaRange {
  int64_t min = 1;
  int64_t max = 1;

  bool operator==(const ReplicaRange&) const = default;
};

struct QuotaSpec {
  std::string name;
  std::string namespace_ = "default";
  std::string parent;  // "" = koordinator-root-quota
  std::string policy;  // label koord-queue/queue-policy; "" = no label
  schema::ResourceList max;
  schema::ResourceList min;
  schema::StringMap labels;
  schema::StringMap annotations;

  bool operator==(const QuotaSpec&) const = default;
};

struct QueueCheckSpec {
  std::string name;
  schema::StringMap match_labels;  // empty: the check applies to every unit

  bool operator==(const QueueCheckSpec&) const = default;
};

// A Queue the simulator creates at start in the queue namespace, shaped like an auto-created one
// (behaviour.md §2.5) plus what an operator adds: annotations and admission checks.
struct QueueSpec {
  std::string name;
  std::string policy;  // "" = the same-named quota's policy label, else Priority
  schema::StringMap labels;
  schema::StringMap annotations;
  std::vector<QueueCheckSpec> admission_checks;

  bool operator==(const QueueSpec&) const = default;
};

// An admission-check controller: marks a Pending check of a Reserved unit after `ready_after`.
struct AdmissionCheckController {
  std::string name;
  DurationDistribution ready_after;
  int64_t reject_ppm = 0;
  int64_t retry_ppm = 0;

  bool operator==(const AdmissionCheckController&) const = default;
};

struct PodSetTemplate {
  std::string name;
  ReplicaRange replicas;
  schema::ResourceList resources;  // per replica

  bool operator==(const PodSetTemplate&) const = default;
};

struct JobClass {
  std::string name;
  std::string kind;
  std::string api_version;
  std::vector<std::string> namespaces;
  std::string quota;
  std::vector<int32_t> priorities;  // one is picked per unit; empty: no spec.priority
  std::string priority_class_name;
  schema::StringMap labels;
  std::vector<PodSetTemplate> pod_sets;
  schema::ResourceList request;  // instead of pod sets: the synthetic pod set (behaviour.md §3.4)
  int64_t arrivals_per_minute_ppm = 0;
  int64_t max_units = 50;  // live (not terminal) units of the class; 0: no cap
  DurationDistribution run_time;
  std::optional<DurationDistribution> start_delay;  // else the job extension's
  int64_t failure_ppm = 0;
  int64_t start_timeout_ppm = 0;
  int64_t inactive_ppm = 0;
  int64_t deactivate_ppm = 0;
  DurationDistribution deactivate_after;
  DurationDistribution reactivate_after;
  std::optional<int32_t> maximum_execution_time_seconds;

  bool operator==(const JobClass&) const = default;
};

// The delays of the simulated job extensions (behaviour.md §5, §11, §12).
struct JobExtensionTimings {
  DurationDistribution start_delay;      // admitted → the next pods run
  DurationDistribution reclaim_delay;    // reclaimState → replicas given back
  DurationDistribution suspend_delay;    // spec.active=false → quota released
  DurationDistribution evict_delay;      // maximum execution time message → Failed
  DurationDistribution start_timeout;    // pods that never start → TimeoutBackoff
  DurationDistribution timeout_backoff;  // TimeoutBackoff → Enqueued
  DurationDistribution delete_after;     // terminal → QueueUnit deleted

  bool operator==(const JobExtensionTimings&) const = default;
};

struct Scenario {
  std::string name;
  std::string description;
  std::string queue_namespace = "koord-queue";
  int64_t conflict_ppm = 0;  // status writes answered 409 although their precondition holds
  JobExtensionTimings job_extension;
  std::vector<QuotaSpec> quotas;
  std::vector<QueueSpec> queues;
  std::vector<AdmissionCheckController> admission_checks;
  std::vector<JobClass> job_classes;

  bool operator==(const Scenario&) const = default;
};

// `default` is the built-in scenario; anything else is the path of a YAML file. Errors name the
// file, the line and the key: `team.yaml:12: jobClasses[1].arrivalsPerMinute: …`.
Result<Scenario> load_scenario(const std::string& name_or_path);

// Parses scenario YAML; `source` names it in errors.
Result<Scenario> parse_scenario(std::string_view yaml, std::string_view source);

// The built-in default scenario's YAML text.
std::string_view default_scenario_yaml();

}  // namespace koordq::kube::sim
