#include "actors/wire/target_wire.hpp"

#include <string>

#include "schema/wire_fields.hpp"

namespace koordq::actors {

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
  return UnitRef{.namespace_ = to_string(in.getNamespace()),
                 .name = to_string(in.getName()),
                 .uid = to_string(in.getUid()),
                 .quota = to_string(in.getQuota()),
                 .queue = to_string(in.getQueue())};
}

void write_target(wire::Target::Builder out, const Target& target) {
  if (const auto* unit = std::get_if<UnitRef>(&target)) {
    write_unit_ref(out.initUnit(), *unit);
  } else {
    out.initQueue().setName(text(std::get<QueueRef>(target).name));
  }
}

Result<Target> read_target(wire::Target::Reader in) {
  switch (in.which()) {
    case wire::Target::UNIT:
      return Target(read_unit_ref(in.getUnit()));
    case wire::Target::QUEUE:
      return Target(QueueRef{to_string(in.getQueue().getName())});
  }
  return make_error("unknown target kind " + std::to_string(static_cast<uint16_t>(in.which())));
}

}  // namespace koordq::actors
