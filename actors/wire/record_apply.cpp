#include "actors/wire/record_apply.hpp"

#include <functional>
#include <memory>
#include <string>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "schema/wire_codec.hpp"
#include "schema/wire_message.hpp"

namespace koordq::actors {
namespace {

using Effect = std::function<void(Scheduler&)>;

Result<Effect> decode_watch(wire::Watch::Reader watch) {
  bool deleted = false;
  switch (watch.getEventType()) {
    case wire::Watch::EventType::BOOKMARK:
      return Effect([](Scheduler&) {});
    case wire::Watch::EventType::ADDED:
    case wire::Watch::EventType::MODIFIED:
      break;
    case wire::Watch::EventType::DELETED:
      deleted = true;
      break;
    default:
      return make_error("unknown watch event type " + std::to_string(static_cast<uint16_t>(watch.getEventType())));
  }
  // Decoded in place on the heap, so that it moves only once: into the state, when the effect
  // runs (which it does once). An object held by the effect itself would move into it, and again
  // into std::function's storage.
  auto object = std::make_shared<schema::WatchedObject>();
  if (Status read = schema::read_watched_object(watch.getObject(), *object); !read.ok()) return read.error();
  return Effect([object = std::move(object), deleted](Scheduler& s) { s.apply_object(std::move(*object), deleted); });
}

Result<Effect> decode_role(wire::Role::Reader role) {
  switch (role.getEvent()) {
    case wire::Role::Event::ACQUIRED:
      return Effect([](Scheduler& s) { s.apply_role_acquired(); });
    case wire::Role::Event::LOST:
      return Effect([](Scheduler&) {});
  }
  return make_error("unknown role event " + std::to_string(static_cast<uint16_t>(role.getEvent())));
}

Result<Effect> decode_relist(wire::Relist::Reader relist) {
  schema::ObjectKind resource = schema::ObjectKind::kQueueUnit;
  switch (relist.getResource()) {
    case wire::Resource::QUEUE_UNITS:
      resource = schema::ObjectKind::kQueueUnit;
      break;
    case wire::Resource::QUEUES:
      resource = schema::ObjectKind::kQueue;
      break;
    case wire::Resource::ELASTIC_QUOTAS:
      resource = schema::ObjectKind::kElasticQuota;
      break;
    default:
      return make_error("unknown relist resource " + std::to_string(static_cast<uint16_t>(relist.getResource())));
  }
  bool begin = true;
  switch (relist.getPhase()) {
    case wire::Relist::Phase::BEGIN:
      begin = true;
      break;
    case wire::Relist::Phase::END:
      begin = false;
      break;
    default:
      return make_error("unknown relist phase " + std::to_string(static_cast<uint16_t>(relist.getPhase())));
  }
  return Effect([resource, begin](Scheduler& s) { s.apply_relist(resource, begin); });
}

// What applying the record does once time has advanced.
Result<Effect> decode(const journal::StoredRecord& record) {
  const auto body = record.reader().getBody();
  switch (record.kind()) {
    case journal::RecordKind::kWatch:
      return decode_watch(body.getWatch());
    case journal::RecordKind::kRound: {
      auto decisions = read_round_kept(body.getRound());
      if (!decisions.ok()) return decisions.error();
      // An effect runs once: what the state keeps of the decisions moves into it.
      return Effect([seq = record.seq(), decisions = std::move(decisions).value()](Scheduler& s) mutable {
        s.apply_round(seq, std::move(decisions));
      });
    }
    case journal::RecordKind::kOutcome: {
      auto outcome = std::make_shared<Outcome>();  // in place, as a watched object is
      if (Status read = read_outcome(body.getOutcome(), *outcome); !read.ok()) return read.error();
      return Effect([outcome = std::move(outcome)](Scheduler& s) { s.apply_outcome(*outcome); });
    }
    case journal::RecordKind::kRole:
      return decode_role(body.getRole());
    case journal::RecordKind::kConfig:
      return Effect([](Scheduler& s) { s.apply_config(); });
    case journal::RecordKind::kRelist:
      return decode_relist(body.getRelist());
    case journal::RecordKind::kTick:
      return Effect([](Scheduler&) {});
  }
  return make_error("unknown record kind");
}

Result<Effect> decode_guarded(const journal::StoredRecord& record) {
  try {
    return decode(record);
  } catch (const kj::Exception& e) {
    return make_error("malformed " + std::string(journal::kind_name(record.kind())) + ": " + wire::describe(e));
  }
}

}  // namespace

Status apply_record(Scheduler& scheduler, const journal::StoredRecord& record) {
  const Result<Effect> effect = decode_guarded(record);
  if (!effect.ok()) return make_error("record " + std::to_string(record.seq()) + ": " + effect.message());
  scheduler.advance_to(record.time());
  (*effect)(scheduler);
  return ok_status();
}

Result<PreparedRecord> prepare_record(journal::StoredRecord record) {
  Result<Effect> effect = decode_guarded(record);
  if (!effect.ok()) return make_error("record " + std::to_string(record.seq()) + ": " + effect.message());
  return PreparedRecord{std::move(record), std::move(effect).value()};
}

Result<PreparedRecord> defer_record(journal::StoredRecord record) {
  return PreparedRecord{std::move(record), nullptr};
}

Status apply_prepared(Scheduler& scheduler, PreparedRecord& prepared) {
  if (!prepared.effect) return apply_record(scheduler, prepared.record);
  scheduler.advance_to(prepared.record.time());
  prepared.effect(scheduler);
  return ok_status();
}

}  // namespace koordq::actors
