// The decision address parts that several records share (record.capnp, UnitRef, Target): the
// round's decisions and victims, and the outcome's copy of its decision's target.
#pragma once

#include "actors/core/decision.hpp"
#include "base/result.hpp"
#include "schema/record.capnp.h"

namespace koordq::actors {

void write_unit_ref(wire::UnitRef::Builder out, const UnitRef& ref);
UnitRef read_unit_ref(wire::UnitRef::Reader in);
void read_unit_ref(wire::UnitRef::Reader in, UnitRef& out);

void write_target(wire::Target::Builder out, const Target& target);
// Into `out`, in place; an Error for a target kind this binary does not know.
Status read_target(wire::Target::Reader in, Target& out);

}  // namespace koordq::actors
