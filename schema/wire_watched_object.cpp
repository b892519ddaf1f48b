#include <string>

#include "schema/wire_codec.hpp"

namespace koordq::schema {

wire::ObjectKind to_wire(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::kQueueUnit:
      return wire::ObjectKind::QUEUE_UNIT;
    case ObjectKind::kQueue:
      return wire::ObjectKind::QUEUE;
    case ObjectKind::kElasticQuota:
      return wire::ObjectKind::ELASTIC_QUOTA;
  }
  return wire::ObjectKind::QUEUE_UNIT;  // unreachable: the switch is exhaustive
}

Result<ObjectKind> from_wire(wire::ObjectKind kind) {
  switch (kind) {
    case wire::ObjectKind::QUEUE_UNIT:
      return ObjectKind::kQueueUnit;
    case wire::ObjectKind::QUEUE:
      return ObjectKind::kQueue;
    case wire::ObjectKind::ELASTIC_QUOTA:
      return ObjectKind::kElasticQuota;
  }
  return make_error("unknown object kind " + std::to_string(static_cast<uint16_t>(kind)));
}

void write_watched_object(wire::WatchedObject::Builder out, const WatchedObject& object) {
  switch (object.index()) {
    case 0:
      write_queue_unit(out.initQueueUnit(), std::get<QueueUnit>(object));
      break;
    case 1:
      write_queue(out.initQueue(), std::get<Queue>(object));
      break;
    case 2:
      write_elastic_quota(out.initElasticQuota(), std::get<ElasticQuota>(object));
      break;
  }
}

Result<WatchedObject> read_watched_object(wire::WatchedObject::Reader in) {
  WatchedObject object;
  if (Status read = read_watched_object(in, object); !read.ok()) return read.error();
  return object;
}

Status read_watched_object(wire::WatchedObject::Reader in, WatchedObject& out) {
  switch (in.which()) {
    case wire::WatchedObject::QUEUE_UNIT:
      read_queue_unit(in.getQueueUnit(), out.emplace<QueueUnit>());
      return ok_status();
    case wire::WatchedObject::QUEUE:
      out.emplace<Queue>(read_queue(in.getQueue()));
      return ok_status();
    case wire::WatchedObject::ELASTIC_QUOTA:
      out.emplace<ElasticQuota>(read_elastic_quota(in.getElasticQuota()));
      return ok_status();
    case wire::WatchedObject::NONE:
      return make_error("watched object carries no object");
  }
  return make_error("watched object of unknown kind " + std::to_string(static_cast<uint16_t>(in.which())));
}

}  // namespace koordq::schema
