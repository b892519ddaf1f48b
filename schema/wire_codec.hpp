// Model ↔ Cap'n Proto: the watched objects as model.capnp stores them, losslessly
// (read_x(write_x(v)) == v for every value).
//
// write_* fill a freshly initialised builder. read_* trust nothing but throw kj::Exception when the
// message underneath is malformed; code reading bytes from outside goes through
// from_capnp_bytes (schema/wire_bytes.hpp) or catches kj::Exception at its own edge.
#pragma once

#include "base/result.hpp"
#include "schema/model.capnp.h"
#include "schema/watched_object.hpp"
#include "schema/wire_bytes.hpp"

namespace koordq::schema {

void write_object_meta(wire::ObjectMeta::Builder out, const ObjectMeta& meta);
ObjectMeta read_object_meta(wire::ObjectMeta::Reader in);
// The in-place forms (`void read_x(in, out)`) fill `out`, every field of it, without a
// temporary to move: a decoded object's strings are written once, where they stay.
void read_object_meta(wire::ObjectMeta::Reader in, ObjectMeta& out);

void write_queue_unit(wire::QueueUnit::Builder out, const QueueUnit& unit);
QueueUnit read_queue_unit(wire::QueueUnit::Reader in);
void read_queue_unit(wire::QueueUnit::Reader in, QueueUnit& out);
// A status on its own: the decision state's pending and landed writes (state.capnp).
void write_queue_unit_status(wire::QueueUnitStatus::Builder out, const QueueUnitStatus& status);
QueueUnitStatus read_queue_unit_status(wire::QueueUnitStatus::Reader in);
void read_queue_unit_status(wire::QueueUnitStatus::Reader in, QueueUnitStatus& out);

void write_queue(wire::Queue::Builder out, const Queue& queue);
Queue read_queue(wire::Queue::Reader in);
void write_queue_item_details(wire::QueueItemDetails::Builder out, const QueueItemDetails& details);
QueueItemDetails read_queue_item_details(wire::QueueItemDetails::Reader in);

void write_elastic_quota(wire::ElasticQuota::Builder out, const ElasticQuota& quota);
ElasticQuota read_elastic_quota(wire::ElasticQuota::Reader in);

// Admission lists also travel in status patches (record.capnp, UnitStatusPatch).
void write_admission(wire::Admission::Builder out, const Admission& admission);
Admission read_admission(wire::Admission::Reader in);
void write_admission_check_state(wire::AdmissionCheckState::Builder out, const AdmissionCheckState& check);
AdmissionCheckState read_admission_check_state(wire::AdmissionCheckState::Reader in);

void write_watched_object(wire::WatchedObject::Builder out, const WatchedObject& object);
// An error for `none` (a bookmark carries no object) and for a kind this binary does not know.
Result<WatchedObject> read_watched_object(wire::WatchedObject::Reader in);
// Into `out`, in place (the fold's reader: the object is not moved again).
Status read_watched_object(wire::WatchedObject::Reader in, WatchedObject& out);

wire::ObjectKind to_wire(ObjectKind kind);
// Fails for a kind this binary does not know (written by a newer one).
Result<ObjectKind> from_wire(wire::ObjectKind kind);

}  // namespace koordq::schema
