// Bodies of the input records that carry no decision-logic content beyond their time (design.md
// §2): `role` (leader election), `relist` (one relist epoch of one resource) and `tick`.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "journal/capnp_record_body.hpp"
#include "schema/watched_object.hpp"

namespace koordq::actors {

enum class RoleEvent { kAcquired, kLost };
enum class RelistPhase { kBegin, kEnd };

std::unique_ptr<journal::CapnpRecordBody> make_role_body(RoleEvent event, const std::string& identity,
                                                         int32_t lease_transitions);
// `resource_version` is the LIST's.
std::unique_ptr<journal::CapnpRecordBody> make_relist_body(RelistPhase phase, schema::ObjectKind resource,
                                                           const std::string& resource_version);
std::unique_ptr<journal::CapnpRecordBody> make_tick_body();

}  // namespace koordq::actors
