#include "actors/wire/input_bodies.hpp"

namespace koordq::actors {
namespace {

wire::Resource resource_of(schema::ObjectKind kind) {
  switch (kind) {
    case schema::ObjectKind::kQueueUnit:
      return wire::Resource::QUEUE_UNITS;
    case schema::ObjectKind::kQueue:
      return wire::Resource::QUEUES;
    case schema::ObjectKind::kElasticQuota:
      return wire::Resource::ELASTIC_QUOTAS;
  }
  return wire::Resource::QUEUE_UNITS;  // unreachable: the switch is exhaustive
}

}  // namespace

std::unique_ptr<journal::CapnpRecordBody> make_role_body(RoleEvent event, const std::string& identity,
                                                         int32_t lease_transitions) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto role = body->record().initBody().initRole();
  role.setEvent(event == RoleEvent::kAcquired ? wire::Role::Event::ACQUIRED : wire::Role::Event::LOST);
  role.setIdentity(identity);
  role.setLeaseTransitions(lease_transitions);
  return body;
}

std::unique_ptr<journal::CapnpRecordBody> make_relist_body(RelistPhase phase, schema::ObjectKind resource,
                                                           const std::string& resource_version) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto relist = body->record().initBody().initRelist();
  relist.setPhase(phase == RelistPhase::kBegin ? wire::Relist::Phase::BEGIN : wire::Relist::Phase::END);
  relist.setResource(resource_of(resource));
  relist.setResourceVersion(resource_version);
  return body;
}

std::unique_ptr<journal::CapnpRecordBody> make_tick_body() {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  body->record().initBody().setTick();
  return body;
}

}  // namespace koordq::actors
