// Small record bodies for journal tests.
#pragma once

#include <memory>
#include <string>

#include "journal/capnp_record_body.hpp"

namespace koordq::testing {

inline std::unique_ptr<journal::CapnpRecordBody> tick_body() {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  body->record().initBody().setTick();
  return body;
}

inline std::unique_ptr<journal::CapnpRecordBody> relist_body(const std::string& resource_version) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto relist = body->record().initBody().initRelist();
  relist.setPhase(wire::Relist::Phase::BEGIN);
  relist.setResource(wire::Resource::QUEUE_UNITS);
  relist.setResourceVersion(resource_version);
  return body;
}

inline std::unique_ptr<journal::CapnpRecordBody> round_body(uint64_t basis) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  body->record().initBody().initRound().setBasis(basis);
  return body;
}

}  // namespace koordq::testing
