// The API server's answer to one write of one decision, as the `outcome` record carries it
// (schema/record.capnp, Outcome), losslessly: read_outcome(write_outcome(o)) == o.
#pragma once

#include <memory>
#include <string_view>

#include "actors/core/scheduler.hpp"
#include "base/result.hpp"
#include "journal/capnp_record_body.hpp"
#include "schema/record.capnp.h"

namespace koordq::actors {

// `message` is the API server's text, for people reading the journal; the decision logic ignores it.
void write_outcome(wire::Outcome::Builder out, const Outcome& outcome, std::string_view message = {});
// An Error for a result, write kind or target this binary does not know, or a malformed message.
Result<Outcome> read_outcome(wire::Outcome::Reader in);
// Into `out`, in place (the fold's reader: no Outcome is moved).
Status read_outcome(wire::Outcome::Reader in, Outcome& out);

std::unique_ptr<journal::CapnpRecordBody> make_outcome_body(const Outcome& outcome, std::string_view message = {});

}  // namespace koordq::actors
