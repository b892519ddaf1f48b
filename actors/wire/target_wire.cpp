#include "actors/wire/target_wire.hpp"

#include <string>

#include "schema/wire_fields.hpp"

namespace koordq::actors {

using schema::wire_fields::assign;
using schema::wire_fields::text;
using schema::wire_fields::to_string;

void write_unit_ref(wire::UnitRef::Builder out, const UnitRef& ref) {
  out.setNamespace(text(ref.namespace_));
  out.setName(text(ref.name));
  out.setUid(text(ref.uid));
  out.setQuota(text(ref.quota));
  out.setQueue(text(ref.queue));
}

UnitRef read_unit_ref(wire::UnitRef::Reader in) {
  UnitRef ref;
  read_unit_ref(in, ref);
  return ref;
}

void read_unit_ref(wire::UnitRef::Reader in, UnitRef& out) {
  assign(out.namespace_, in.getNamespace());
  assign(out.name, in.getName());
  assign(out.uid, in.getUid());
  assign(out.quota, in.getQuota());
  assign(out.queue, in.getQueue());
}

void write_target(wire::Target::Builder out, const Target& target) {
  if (const auto* unit = std::get_if<UnitRef>(&target)) {
    write_unit_ref(out.initUnit(), *unit);
  } else {
    out.initQueue().setName(text(std::get<QueueRef>(target).name));
  }
}

Status read_target(wire::Target::Reader in, Target& out) {
  switch (in.which()) {
    case wire::Target::UNIT:
      read_unit_ref(in.getUnit(), out.emplace<UnitRef>());
      return ok_status();
    case wire::Target::QUEUE:
      assign(out.emplace<QueueRef>().name, in.getQueue().getName());
      return ok_status();
  }
  return make_error("unknown target kind " + std::to_string(static_cast<uint16_t>(in.which())));
}

}  // namespace koordq::actors
