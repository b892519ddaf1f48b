#include "actors/wire/outcome_wire.hpp"

#include <string>

#include "actors/wire/target_wire.hpp"
#include "schema/wire_fields.hpp"
#include "schema/wire_message.hpp"

namespace koordq::actors {
namespace {

using schema::wire_fields::text;
using schema::wire_fields::to_string;

wire::Outcome::Result to_wire(OutcomeResult result) {
  switch (result) {
    case OutcomeResult::kSuccess:
      return wire::Outcome::Result::SUCCESS;
    case OutcomeResult::kConflict:
      return wire::Outcome::Result::CONFLICT;
    case OutcomeResult::kNotFound:
      return wire::Outcome::Result::NOT_FOUND;
    case OutcomeResult::kError:
      return wire::Outcome::Result::ERROR;
    case OutcomeResult::kUnknown:
      return wire::Outcome::Result::UNKNOWN;
  }
  return wire::Outcome::Result::UNKNOWN;  // unreachable: the switch is exhaustive
}

Result<OutcomeResult> from_wire(wire::Outcome::Result result) {
  switch (result) {
    case wire::Outcome::Result::SUCCESS:
      return OutcomeResult::kSuccess;
    case wire::Outcome::Result::CONFLICT:
      return OutcomeResult::kConflict;
    case wire::Outcome::Result::NOT_FOUND:
      return OutcomeResult::kNotFound;
    case wire::Outcome::Result::ERROR:
      return OutcomeResult::kError;
    case wire::Outcome::Result::UNKNOWN:
      return OutcomeResult::kUnknown;
  }
  return make_error("unknown outcome result " + std::to_string(static_cast<uint16_t>(result)));
}

wire::Outcome::WriteKind to_wire(WriteKind kind) {
  switch (kind) {
    case WriteKind::kStatusPatch:
      return wire::Outcome::WriteKind::STATUS_PATCH;
    case WriteKind::kSpecQueuePatch:
      return wire::Outcome::WriteKind::SPEC_QUEUE_PATCH;
    case WriteKind::kQueueWrite:
      return wire::Outcome::WriteKind::QUEUE_WRITE;
    case WriteKind::kEvent:
      return wire::Outcome::WriteKind::EVENT;
  }
  return wire::Outcome::WriteKind::STATUS_PATCH;  // unreachable: the switch is exhaustive
}

Result<WriteKind> from_wire(wire::Outcome::WriteKind kind) {
  switch (kind) {
    case wire::Outcome::WriteKind::STATUS_PATCH:
      return WriteKind::kStatusPatch;
    case wire::Outcome::WriteKind::SPEC_QUEUE_PATCH:
      return WriteKind::kSpecQueuePatch;
    case wire::Outcome::WriteKind::QUEUE_WRITE:
      return WriteKind::kQueueWrite;
    case wire::Outcome::WriteKind::EVENT:
      return WriteKind::kEvent;
  }
  return make_error("unknown outcome write kind " + std::to_string(static_cast<uint16_t>(kind)));
}

Status read_outcome_unguarded(wire::Outcome::Reader in, Outcome& o) {
  o.decision_seq = in.getDecisionSeq();
  o.decision_index = in.getDecisionIndex();
  auto write_kind = from_wire(in.getWriteKind());
  if (!write_kind.ok()) return write_kind.error();
  o.write_kind = *write_kind;
  o.write_index = in.getWriteIndex();
  auto result = from_wire(in.getResult());
  if (!result.ok()) return result.error();
  o.result = *result;
  o.http_code = in.getHttpCode();
  o.resource_version = to_string(in.getResourceVersion());
  return read_target(in.getTarget(), o.target);
}

}  // namespace

void write_outcome(wire::Outcome::Builder out, const Outcome& outcome, std::string_view message) {
  out.setDecisionSeq(outcome.decision_seq);
  out.setDecisionIndex(outcome.decision_index);
  out.setWriteKind(to_wire(outcome.write_kind));
  out.setWriteIndex(outcome.write_index);
  out.setResult(to_wire(outcome.result));
  out.setHttpCode(outcome.http_code);
  out.setMessage(text(std::string(message)));
  out.setResourceVersion(text(outcome.resource_version));
  write_target(out.initTarget(), outcome.target);
}

Result<Outcome> read_outcome(wire::Outcome::Reader in) {
  Outcome o;
  if (Status read = read_outcome(in, o); !read.ok()) return read.error();
  return o;
}

Status read_outcome(wire::Outcome::Reader in, Outcome& out) {
  try {
    return read_outcome_unguarded(in, out);
  } catch (const kj::Exception& e) {
    return make_error("malformed outcome: " + wire::describe(e));
  }
}

std::unique_ptr<journal::CapnpRecordBody> make_outcome_body(const Outcome& outcome, std::string_view message) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  write_outcome(body->record().initBody().initOutcome(), outcome, message);
  return body;
}

}  // namespace koordq::actors
