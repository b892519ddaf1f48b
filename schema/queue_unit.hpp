// QueueUnit (scheduling.x-k8s.io/v1alpha1), the fields of behaviour.md §2.2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "schema/object_meta.hpp"
#include "schema/resource_list.hpp"

namespace koordq::schema {

struct ConsumerRef {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_;
  std::string uid;

  bool operator==(const ConsumerRef&) const = default;
};

// Only what §3.4 reads from a pod template: each container's requests and limits.
struct ContainerResources {
  std::string name;
  ResourceList requests;
  ResourceList limits;

  bool operator==(const ContainerResources&) const = default;
};

struct PodSet {
  std::string name;
  int64_t count = 0;
  std::optional<int64_t> min_count;
  std::vector<ContainerResources> containers;  // template.spec.containers[]

  bool operator==(const PodSet&) const = default;
};

struct QueueUnitSpec {
  std::optional<ConsumerRef> consumer_ref;
  std::optional<int32_t> priority;
  std::vector<PodSet> pod_set;
  ResourceList request;
  ResourceList resource;
  std::string queue;
  std::string priority_class_name;
  std::optional<bool> active;
  std::optional<int32_t> maximum_execution_time_seconds;

  bool operator==(const QueueUnitSpec&) const = default;
};

struct ReclaimState {
  int64_t replicas = 0;

  bool operator==(const ReclaimState&) const = default;
};

struct Admission {
  std::string name;
  int64_t replicas = 0;
  std::optional<ResourceList> resources;
  int64_t running = 0;
  std::optional<ReclaimState> reclaim_state;

  bool operator==(const Admission&) const = default;
};

struct AdmissionCheckState {
  std::string name;
  std::string state;  // Pending, Ready, Retry, Rejected
  std::optional<UnixNanos> last_transition_time;
  std::string message;
  // Written by admission-check controllers and sent back complete (§7.3); koordq does not
  // interpret it, so it is kept as the compact JSON array it arrived as ("" when absent).
  std::string pod_set_updates_json;

  bool operator==(const AdmissionCheckState&) const = default;
};

struct PodState {
  int64_t running = 0;
  int64_t pending = 0;

  bool operator==(const PodState&) const = default;
};

struct QueueUnitStatus {
  std::string phase;
  std::string message;
  int64_t attempts = 0;
  std::optional<UnixNanos> last_update_time;
  std::optional<UnixNanos> last_allocate_time;
  std::vector<Admission> admissions;
  std::vector<AdmissionCheckState> admission_checks;
  std::optional<PodState> pod_state;

  bool operator==(const QueueUnitStatus&) const = default;
};

struct QueueUnit {
  ObjectMeta metadata;
  QueueUnitSpec spec;
  QueueUnitStatus status;

  bool operator==(const QueueUnit&) const = default;
};

}  // namespace koordq::schema
