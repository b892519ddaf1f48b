// Decisions and rounds as the `round` record carries them (schema/record.capnp, Round, Decision),
// losslessly: read_decision(write_decision(d)) == d for every Decision.
//
// Readers trust nothing: an enumerant or union member written by a newer binary, or a malformed
// message, is an Error naming what was not understood, never a crash or a guess.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "actors/core/decision.hpp"
#include "base/result.hpp"
#include "journal/capnp_record_body.hpp"
#include "schema/record.capnp.h"

namespace koordq::actors {

// `out` is a freshly initialised builder.
void write_decision(wire::Decision::Builder out, const Decision& decision);
Result<Decision> read_decision(wire::Decision::Reader in);

// The `round` record of the round decided on the state after record `basis`.
std::unique_ptr<journal::CapnpRecordBody> make_round_body(uint64_t basis, const std::vector<Decision>& decisions);
// The decisions in canonical order; an Error for the first one that does not decode.
Result<std::vector<Decision>> read_round(wire::Round::Reader in);
// The decisions as the fold keeps them (Scheduler::apply_round reads nothing else): without
// their events and quota-check steps, nor the reason of a unit's decision. The events are checked
// for an event type this binary does not know (the Error read_round gives), not copied. The apply
// benchmark's rounds decode in 63 % of read_round's instructions without the events and steps
// (BENCHMARKS.md, "Records decoded in place…").
Result<std::vector<Decision>> read_round_kept(wire::Round::Reader in);

}  // namespace koordq::actors
