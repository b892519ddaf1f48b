#include "actors/wire/decision_wire.hpp"

#include <string>
#include <variant>

#include "actors/wire/queue_write_wire.hpp"
#include "actors/wire/target_wire.hpp"
#include "schema/wire_codec.hpp"
#include "schema/wire_fields.hpp"
#include "schema/wire_message.hpp"

namespace koordq::actors {
namespace {

using schema::wire_fields::read_list;
using schema::wire_fields::read_optional;
using schema::wire_fields::read_optional_text;
using schema::wire_fields::text;
using schema::wire_fields::to_string;
using schema::wire_fields::write_list;
using schema::wire_fields::write_optional;
using schema::wire_fields::write_optional_text;
using WireKind = wire::Decision::Kind;

WireKind to_wire(DecisionKind kind) {
  switch (kind) {
    case DecisionKind::kAdmit:
      return WireKind::ADMIT;
    case DecisionKind::kReserve:
      return WireKind::RESERVE;
    case DecisionKind::kFail:
      return WireKind::FAIL;
    case DecisionKind::kPreempt:
      return WireKind::PREEMPT;
    case DecisionKind::kReclaimObserved:
      return WireKind::RECLAIM_OBSERVED;
    case DecisionKind::kQueueNotFound:
      return WireKind::QUEUE_NOT_FOUND;
    case DecisionKind::kAddQueueFail:
      return WireKind::ADD_QUEUE_FAIL;
    case DecisionKind::kDeactivated:
      return WireKind::DEACTIVATED;
    case DecisionKind::kMaxExecExceeded:
      return WireKind::MAX_EXEC_EXCEEDED;
    case DecisionKind::kPublishQueueItems:
      return WireKind::PUBLISH_QUEUE_ITEMS;
    case DecisionKind::kAdmissionChecksReady:
      return WireKind::ADMISSION_CHECKS_READY;
    case DecisionKind::kAdmissionCheckFailed:
      return WireKind::ADMISSION_CHECK_FAILED;
    case DecisionKind::kInvalidRefreshInterval:
      return WireKind::INVALID_REFRESH_INTERVAL;
    case DecisionKind::kQueueCreate:
      return WireKind::QUEUE_CREATE;
    case DecisionKind::kQueuePatch:
      return WireKind::QUEUE_PATCH;
    case DecisionKind::kQueueDelete:
      return WireKind::QUEUE_DELETE;
    case DecisionKind::kQueueUsageAnnotations:
      return WireKind::QUEUE_USAGE_ANNOTATIONS;
    case DecisionKind::kPhaseEvent:
      return WireKind::PHASE_EVENT;
    case DecisionKind::kAdmissionChecksUpdated:
      return WireKind::ADMISSION_CHECKS_UPDATED;
    case DecisionKind::kSpecQueueRepair:
      return WireKind::SPEC_QUEUE_REPAIR;
    case DecisionKind::kInvalidQuantities:
      return WireKind::INVALID_QUANTITIES;
  }
  return WireKind::FAIL;  // unreachable: the switch is exhaustive
}

Result<DecisionKind> from_wire(WireKind kind) {
  switch (kind) {
    case WireKind::ADMIT:
      return DecisionKind::kAdmit;
    case WireKind::RESERVE:
      return DecisionKind::kReserve;
    case WireKind::FAIL:
      return DecisionKind::kFail;
    case WireKind::PREEMPT:
      return DecisionKind::kPreempt;
    case WireKind::RECLAIM_OBSERVED:
      return DecisionKind::kReclaimObserved;
    case WireKind::QUEUE_NOT_FOUND:
      return DecisionKind::kQueueNotFound;
    case WireKind::ADD_QUEUE_FAIL:
      return DecisionKind::kAddQueueFail;
    case WireKind::DEACTIVATED:
      return DecisionKind::kDeactivated;
    case WireKind::MAX_EXEC_EXCEEDED:
      return DecisionKind::kMaxExecExceeded;
    case WireKind::PUBLISH_QUEUE_ITEMS:
      return DecisionKind::kPublishQueueItems;
    case WireKind::ADMISSION_CHECKS_READY:
      return DecisionKind::kAdmissionChecksReady;
    case WireKind::ADMISSION_CHECK_FAILED:
      return DecisionKind::kAdmissionCheckFailed;
    case WireKind::INVALID_REFRESH_INTERVAL:
      return DecisionKind::kInvalidRefreshInterval;
    case WireKind::QUEUE_CREATE:
      return DecisionKind::kQueueCreate;
    case WireKind::QUEUE_PATCH:
      return DecisionKind::kQueuePatch;
    case WireKind::QUEUE_DELETE:
      return DecisionKind::kQueueDelete;
    case WireKind::QUEUE_USAGE_ANNOTATIONS:
      return DecisionKind::kQueueUsageAnnotations;
    case WireKind::PHASE_EVENT:
      return DecisionKind::kPhaseEvent;
    case WireKind::ADMISSION_CHECKS_UPDATED:
      return DecisionKind::kAdmissionChecksUpdated;
    case WireKind::SPEC_QUEUE_REPAIR:
      return DecisionKind::kSpecQueueRepair;
    case WireKind::INVALID_QUANTITIES:
      return DecisionKind::kInvalidQuantities;
  }
  return make_error("unknown decision kind " + std::to_string(static_cast<uint16_t>(kind)));
}

void write_status_patch(wire::UnitStatusPatch::Builder out, const StatusPatch& patch) {
  out.setResourceVersion(text(patch.resource_version));
  write_optional_text(out.getPhase(), patch.phase);
  write_optional_text(out.getMessage(), patch.message);
  write_optional(out.getAttempts(), patch.attempts);
  write_optional(out.getLastUpdateTime(), patch.last_update_time);
  write_optional(out.getLastAllocateTime(), patch.last_allocate_time);
  if (patch.admissions) {
    write_list(out.getAdmissions().initValue(patch.admissions->size()), *patch.admissions, schema::write_admission);
  }
  if (patch.admission_checks) {
    write_list(out.getAdmissionChecks().initValue(patch.admission_checks->size()), *patch.admission_checks,
               schema::write_admission_check_state);
  }
}

void read_status_patch(wire::UnitStatusPatch::Reader in, StatusPatch& patch) {
  schema::wire_fields::assign(patch.resource_version, in.getResourceVersion());
  read_optional_text(in.getPhase(), patch.phase);
  read_optional_text(in.getMessage(), patch.message);
  patch.attempts = read_optional(in.getAttempts());
  patch.last_update_time = read_optional(in.getLastUpdateTime());
  patch.last_allocate_time = read_optional(in.getLastAllocateTime());
  if (in.getAdmissions().isValue()) {
    patch.admissions = read_list<schema::Admission>(in.getAdmissions().getValue(), schema::read_admission);
  }
  if (in.getAdmissionChecks().isValue()) {
    patch.admission_checks =
        read_list<schema::AdmissionCheckState>(in.getAdmissionChecks().getValue(), schema::read_admission_check_state);
  }
}

void write_event(wire::KubeEvent::Builder out, const KubeEvent& event) {
  auto ref = out.initInvolvedObject();
  ref.setKind(text(event.involved_object.kind));
  ref.setApiVersion(text(event.involved_object.api_version));
  ref.setNamespace(text(event.involved_object.namespace_));
  ref.setName(text(event.involved_object.name));
  ref.setUid(text(event.involved_object.uid));
  out.setType(event.warning ? wire::KubeEvent::Type::WARNING : wire::KubeEvent::Type::NORMAL);
  out.setReason(text(event.reason));
  out.setMessage(text(event.message));
}

Result<KubeEvent> read_event(wire::KubeEvent::Reader in) {
  KubeEvent event;
  switch (in.getType()) {
    case wire::KubeEvent::Type::NORMAL:
      event.warning = false;
      break;
    case wire::KubeEvent::Type::WARNING:
      event.warning = true;
      break;
    default:
      return make_error("unknown event type " + std::to_string(static_cast<uint16_t>(in.getType())));
  }
  const auto ref = in.getInvolvedObject();
  event.involved_object = ObjectRef{.kind = to_string(ref.getKind()),
                                    .api_version = to_string(ref.getApiVersion()),
                                    .namespace_ = to_string(ref.getNamespace()),
                                    .name = to_string(ref.getName()),
                                    .uid = to_string(ref.getUid())};
  event.reason = to_string(in.getReason());
  event.message = to_string(in.getMessage());
  return event;
}

void write_victim(wire::Victim::Builder out, const Victim& victim) {
  write_unit_ref(out.initUnit(), victim.unit);
  out.setReplicas(victim.replicas);
}

Victim read_victim(wire::Victim::Reader in) {
  return Victim{read_unit_ref(in.getUnit()), in.getReplicas()};
}

void write_quota_check_step(wire::QuotaCheckStep::Builder out, const QuotaCheckStep& step) {
  out.setQuota(text(step.quota));
  out.setResource(text(step.resource));
  out.setUsed(step.used);
  out.setRequest(step.request);
  out.setLimit(step.limit);
  out.setPass(step.pass);
}

QuotaCheckStep read_quota_check_step(wire::QuotaCheckStep::Reader in) {
  return QuotaCheckStep{.quota = to_string(in.getQuota()),
                        .resource = to_string(in.getResource()),
                        .used = in.getUsed(),
                        .request = in.getRequest(),
                        .limit = in.getLimit(),
                        .pass = in.getPass()};
}

// How much of a decision a reader needs: all of it, or what the fold keeps (the events and the
// quota-check steps are only read by the writers, replay --verify and explain).
enum class Detail { kWhole, kKept };

// Into `d`, a default-constructed Decision in place (fields the message lacks are left as they are).
Status read_decision_unguarded(wire::Decision::Reader in, Detail detail, Decision& d) {
  if (Status target = read_target(in.getTarget(), d.target); !target.ok()) return target;
  auto kind = from_wire(in.getKind());
  if (!kind.ok()) return kind.error();
  d.kind = *kind;
  // The state keeps no reason of a unit's decision (a Queue's InvalidRefreshInterval it does).
  if (detail == Detail::kWhole || std::holds_alternative<QueueRef>(d.target)) {
    schema::wire_fields::assign(d.reason, in.getReason());
  }
  if (in.getStatusPatch().isValue()) read_status_patch(in.getStatusPatch().getValue(), d.status_patch.emplace());
  read_optional_text(in.getSpecQueuePatch(), d.spec_queue_patch);
  const auto events = in.getEvents();
  if (detail == Detail::kWhole) d.events.reserve(events.size());
  for (unsigned i = 0; i < events.size(); ++i) {
    if (detail == Detail::kKept) {
      // Not kept, but an event this binary does not understand fails the record as it would here.
      const auto type = events[i].getType();
      if (type != wire::KubeEvent::Type::NORMAL && type != wire::KubeEvent::Type::WARNING) {
        return make_error("event " + std::to_string(i) + ": unknown event type " +
                          std::to_string(static_cast<uint16_t>(type)));
      }
      continue;
    }
    auto event = read_event(events[i]);
    if (!event.ok()) return make_error("event " + std::to_string(i) + ": " + event.message());
    d.events.push_back(std::move(event).value());
  }
  if (in.getQueueWrite().isValue()) {
    auto write = read_queue_write(in.getQueueWrite().getValue());
    if (!write.ok()) return make_error("queue write: " + write.message());
    d.queue_write = std::move(write).value();
  }
  d.victims = read_list<Victim>(in.getVictims(), read_victim);
  if (detail == Detail::kWhole) {
    d.quota_check = read_list<QuotaCheckStep>(in.getQuotaCheck(), read_quota_check_step);
  }
  return ok_status();
}

Result<std::vector<Decision>> read_round_unguarded(wire::Round::Reader in, Detail detail) {
  const auto list = in.getDecisions();
  std::vector<Decision> decisions;
  decisions.reserve(list.size());
  for (unsigned i = 0; i < list.size(); ++i) {
    Status read = read_decision_unguarded(list[i], detail, decisions.emplace_back());
    if (!read.ok()) return make_error("decision " + std::to_string(i) + ": " + read.message());
  }
  return decisions;
}

}  // namespace

void write_decision(wire::Decision::Builder out, const Decision& d) {
  write_target(out.initTarget(), d.target);
  out.setKind(to_wire(d.kind));
  out.setReason(text(d.reason));
  if (d.status_patch) {
    write_status_patch(out.getStatusPatch().initValue(), *d.status_patch);
  } else {
    out.getStatusPatch().setAbsent();
  }
  write_optional_text(out.getSpecQueuePatch(), d.spec_queue_patch);
  if (!d.events.empty()) write_list(out.initEvents(d.events.size()), d.events, write_event);
  if (d.queue_write) {
    write_queue_write(out.getQueueWrite().initValue(), *d.queue_write);
  } else {
    out.getQueueWrite().setAbsent();
  }
  if (!d.victims.empty()) write_list(out.initVictims(d.victims.size()), d.victims, write_victim);
  if (!d.quota_check.empty()) {
    write_list(out.initQuotaCheck(d.quota_check.size()), d.quota_check, write_quota_check_step);
  }
}

Result<Decision> read_decision(wire::Decision::Reader in) {
  try {
    Decision d;
    if (Status read = read_decision_unguarded(in, Detail::kWhole, d); !read.ok()) return read.error();
    return d;
  } catch (const kj::Exception& e) {
    return make_error("malformed decision: " + wire::describe(e));
  }
}

std::unique_ptr<journal::CapnpRecordBody> make_round_body(uint64_t basis, const std::vector<Decision>& decisions) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto round = body->record().initBody().initRound();
  round.setBasis(basis);
  if (!decisions.empty()) write_list(round.initDecisions(decisions.size()), decisions, write_decision);
  return body;
}

Result<std::vector<Decision>> read_round(wire::Round::Reader in) {
  try {
    return read_round_unguarded(in, Detail::kWhole);
  } catch (const kj::Exception& e) {
    return make_error("malformed round: " + wire::describe(e));
  }
}

Result<std::vector<Decision>> read_round_kept(wire::Round::Reader in) {
  try {
    return read_round_unguarded(in, Detail::kKept);
  } catch (const kj::Exception& e) {
    return make_error("malformed round: " + wire::describe(e));
  }
}

}  // namespace koordq::actors
