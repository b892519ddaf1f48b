#include "schema/wire_codec.hpp"
#include "schema/wire_fields.hpp"

namespace koordq::schema {

using namespace wire_fields;

namespace {

void write_consumer_ref(wire::ConsumerRef::Builder out, const ConsumerRef& ref) {
  out.setApiVersion(text(ref.api_version));
  out.setKind(text(ref.kind));
  out.setName(text(ref.name));
  out.setNamespace(text(ref.namespace_));
  out.setUid(text(ref.uid));
}

ConsumerRef read_consumer_ref(wire::ConsumerRef::Reader in) {
  return ConsumerRef{.api_version = to_string(in.getApiVersion()),
                     .kind = to_string(in.getKind()),
                     .name = to_string(in.getName()),
                     .namespace_ = to_string(in.getNamespace()),
                     .uid = to_string(in.getUid())};
}

void write_container(wire::ContainerResources::Builder out, const ContainerResources& container) {
  out.setName(text(container.name));
  if (!container.requests.empty()) write_resource_list(out.initRequests(container.requests.size()), container.requests);
  if (!container.limits.empty()) write_resource_list(out.initLimits(container.limits.size()), container.limits);
}

ContainerResources read_container(wire::ContainerResources::Reader in) {
  return ContainerResources{.name = to_string(in.getName()),
                            .requests = read_resource_list(in.getRequests()),
                            .limits = read_resource_list(in.getLimits())};
}

void write_pod_set(wire::PodSet::Builder out, const PodSet& pod_set) {
  out.setName(text(pod_set.name));
  out.setCount(pod_set.count);
  write_optional(out.getMinCount(), pod_set.min_count);
  if (!pod_set.containers.empty()) {
    write_list(out.initContainers(pod_set.containers.size()), pod_set.containers, write_container);
  }
}

PodSet read_pod_set(wire::PodSet::Reader in) {
  return PodSet{.name = to_string(in.getName()),
                .count = in.getCount(),
                .min_count = read_optional(in.getMinCount()),
                .containers = read_list<ContainerResources>(in.getContainers(), read_container)};
}

void write_spec(wire::QueueUnitSpec::Builder out, const QueueUnitSpec& spec) {
  if (spec.consumer_ref) write_consumer_ref(out.getConsumerRef().initValue(), *spec.consumer_ref);
  write_optional(out.getPriority(), spec.priority);
  if (!spec.pod_set.empty()) write_list(out.initPodSet(spec.pod_set.size()), spec.pod_set, write_pod_set);
  if (!spec.request.empty()) write_resource_list(out.initRequest(spec.request.size()), spec.request);
  if (!spec.resource.empty()) write_resource_list(out.initResource(spec.resource.size()), spec.resource);
  out.setQueue(text(spec.queue));
  out.setPriorityClassName(text(spec.priority_class_name));
  write_optional(out.getActive(), spec.active);
  write_optional(out.getMaximumExecutionTimeSeconds(), spec.maximum_execution_time_seconds);
}

void read_spec(wire::QueueUnitSpec::Reader in, QueueUnitSpec& spec) {
  if (auto ref = in.getConsumerRef(); ref.isValue()) {
    spec.consumer_ref = read_consumer_ref(ref.getValue());
  } else {
    spec.consumer_ref.reset();
  }
  spec.priority = read_optional(in.getPriority());
  spec.pod_set = read_list<PodSet>(in.getPodSet(), read_pod_set);
  spec.request = read_resource_list(in.getRequest());
  spec.resource = read_resource_list(in.getResource());
  assign(spec.queue, in.getQueue());
  assign(spec.priority_class_name, in.getPriorityClassName());
  spec.active = read_optional(in.getActive());
  spec.maximum_execution_time_seconds = read_optional(in.getMaximumExecutionTimeSeconds());
}

void write_status(wire::QueueUnitStatus::Builder out, const QueueUnitStatus& status) {
  out.setPhase(text(status.phase));
  out.setMessage(text(status.message));
  out.setAttempts(status.attempts);
  write_optional(out.getLastUpdateTime(), status.last_update_time);
  write_optional(out.getLastAllocateTime(), status.last_allocate_time);
  if (!status.admissions.empty()) {
    write_list(out.initAdmissions(status.admissions.size()), status.admissions, write_admission);
  }
  if (!status.admission_checks.empty()) {
    write_list(out.initAdmissionChecks(status.admission_checks.size()), status.admission_checks,
               write_admission_check_state);
  }
  if (status.pod_state) {
    auto pod_state = out.getPodState().initValue();
    pod_state.setRunning(status.pod_state->running);
    pod_state.setPending(status.pod_state->pending);
  }
}

void read_status(wire::QueueUnitStatus::Reader in, QueueUnitStatus& status) {
  assign(status.phase, in.getPhase());
  assign(status.message, in.getMessage());
  status.attempts = in.getAttempts();
  status.last_update_time = read_optional(in.getLastUpdateTime());
  status.last_allocate_time = read_optional(in.getLastAllocateTime());
  status.admissions = read_list<Admission>(in.getAdmissions(), read_admission);
  status.admission_checks = read_list<AdmissionCheckState>(in.getAdmissionChecks(), read_admission_check_state);
  if (auto pod_state = in.getPodState(); pod_state.isValue()) {
    status.pod_state =
        PodState{.running = pod_state.getValue().getRunning(), .pending = pod_state.getValue().getPending()};
  } else {
    status.pod_state.reset();
  }
}

}  // namespace

void write_admission(wire::Admission::Builder out, const Admission& admission) {
  out.setName(text(admission.name));
  out.setReplicas(admission.replicas);
  if (admission.resources) {
    write_resource_list(out.getResources().initValue(admission.resources->size()), *admission.resources);
  }
  out.setRunning(admission.running);
  if (admission.reclaim_state) out.getReclaimState().initValue().setReplicas(admission.reclaim_state->replicas);
}

Admission read_admission(wire::Admission::Reader in) {
  Admission admission;
  admission.name = to_string(in.getName());
  admission.replicas = in.getReplicas();
  if (auto resources = in.getResources(); resources.isValue()) {
    admission.resources = read_resource_list(resources.getValue());
  }
  admission.running = in.getRunning();
  if (auto reclaim = in.getReclaimState(); reclaim.isValue()) {
    admission.reclaim_state = ReclaimState{.replicas = reclaim.getValue().getReplicas()};
  }
  return admission;
}

void write_admission_check_state(wire::AdmissionCheckState::Builder out, const AdmissionCheckState& check) {
  out.setName(text(check.name));
  out.setState(text(check.state));
  write_optional(out.getLastTransitionTime(), check.last_transition_time);
  out.setMessage(text(check.message));
  out.setPodSetUpdatesJson(text(check.pod_set_updates_json));
}

AdmissionCheckState read_admission_check_state(wire::AdmissionCheckState::Reader in) {
  return AdmissionCheckState{.name = to_string(in.getName()),
                             .state = to_string(in.getState()),
                             .last_transition_time = read_optional(in.getLastTransitionTime()),
                             .message = to_string(in.getMessage()),
                             .pod_set_updates_json = to_string(in.getPodSetUpdatesJson())};
}

void write_queue_unit(wire::QueueUnit::Builder out, const QueueUnit& unit) {
  write_object_meta(out.initMetadata(), unit.metadata);
  write_spec(out.initSpec(), unit.spec);
  write_status(out.initStatus(), unit.status);
}

QueueUnit read_queue_unit(wire::QueueUnit::Reader in) {
  QueueUnit unit;
  read_queue_unit(in, unit);
  return unit;
}

void read_queue_unit(wire::QueueUnit::Reader in, QueueUnit& out) {
  read_object_meta(in.getMetadata(), out.metadata);
  read_spec(in.getSpec(), out.spec);
  read_status(in.getStatus(), out.status);
}

void write_queue_unit_status(wire::QueueUnitStatus::Builder out, const QueueUnitStatus& status) {
  write_status(out, status);
}

QueueUnitStatus read_queue_unit_status(wire::QueueUnitStatus::Reader in) {
  QueueUnitStatus status;
  read_status(in, status);
  return status;
}

void read_queue_unit_status(wire::QueueUnitStatus::Reader in, QueueUnitStatus& out) {
  read_status(in, out);
}

}  // namespace koordq::schema
