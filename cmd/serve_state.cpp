#include "cmd/serve_state.hpp"

#include <map>
#include <variant>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "base/log.hpp"
#include "cmd/serve_config.hpp"
#include "cmd/sync_appender.hpp"
#include "journal/redaction_key.hpp"
#include "journal/retention.hpp"
#include "schema/raw_object.hpp"

namespace koordq::cmd {

schema::RawObjectMode raw_object_mode_of(const ServeOptions& o) {
  switch (o.journal_raw_objects) {
    case RawObjectsMode::full:
      return schema::RawObjectMode::kFull;
    case RawObjectsMode::off:
      return schema::RawObjectMode::kOff;
    case RawObjectsMode::redacted:
      break;
  }
  return schema::RawObjectMode::kRedacted;
}

std::vector<schema::WatchedObject> journaled_objects(const actors::Scheduler& s) {
  std::vector<schema::WatchedObject> out;
  for (auto& quota : s.quotas().objects()) out.emplace_back(std::move(quota));
  for (const auto& [name, q] : s.queues()) out.emplace_back(q.object);
  for (const auto& [key, u] : s.units()) out.emplace_back(u.object);
  return out;
}

std::vector<kube::RelistEvent> relist_changes(const actors::Scheduler& s, schema::ObjectKind kind,
                                              std::vector<schema::DecodedObject>&& listed,
                                              schema::RawObjectMode raw_mode) {
  std::vector<kube::JournaledObject> journaled;
  std::vector<schema::ElasticQuota> quotas;  // the tree hands out copies (a handful of objects)
  switch (kind) {
    case schema::ObjectKind::kElasticQuota:
      quotas = s.quotas().objects();
      for (const auto& quota : quotas) journaled.emplace_back(&quota);
      break;
    case schema::ObjectKind::kQueue:
      for (const auto& [name, q] : s.queues()) journaled.emplace_back(&q.object);
      break;
    case schema::ObjectKind::kQueueUnit:
      journaled.reserve(s.units().size());
      for (const auto& [key, u] : s.units()) journaled.emplace_back(&u.object);
      break;
  }
  return kube::relist_diff(journaled, std::move(listed), raw_mode);
}

std::vector<actors::Outcome> unanswered_writes(const actors::Scheduler& s) {
  std::vector<actors::Outcome> out;
  auto unknown = [&out](const actors::UnitState& u, actors::WriteKind kind, uint64_t seq) {
    actors::Outcome o;
    o.decision_seq = seq;
    o.write_kind = kind;
    o.result = actors::OutcomeResult::kUnknown;
    o.target =
        actors::UnitRef{u.object.metadata.namespace_, u.object.metadata.name, u.object.metadata.uid, u.quota, u.quota};
    out.push_back(std::move(o));
  };
  for (const auto& [key, u] : s.units()) {
    if (u.pending_status && u.pending_written_rv.empty()) {
      unknown(u, actors::WriteKind::kStatusPatch, u.pending_decision_seq);
    }
    if (!u.spec_queue_sent.empty()) unknown(u, actors::WriteKind::kSpecQueuePatch, u.spec_queue_sent_seq);
  }
  for (const auto& [name, a] : s.auto_queues()) {
    if (!a.in_flight) continue;
    actors::Outcome o;
    o.decision_seq = a.in_flight_seq;
    o.decision_index = a.in_flight_index;
    o.write_kind = actors::WriteKind::kQueueWrite;
    o.result = actors::OutcomeResult::kUnknown;
    o.target = actors::QueueRef{name};
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<actors::Outcome> unanswered_writes(const actors::Scheduler& s, journal::JournalReader& reader) {
  std::vector<actors::Outcome> out = unanswered_writes(s);
  std::map<uint64_t, std::vector<actors::Decision>> rounds;
  for (actors::Outcome& o : out) {
    const auto* unit = std::get_if<actors::UnitRef>(&o.target);
    if (unit == nullptr) continue;
    auto round = rounds.find(o.decision_seq);
    if (round == rounds.end()) {
      std::vector<actors::Decision> decisions;
      if (auto record = reader.get(o.decision_seq); record.ok() && record->has_value()) {
        const auto body = (*record)->reader().getBody();
        if (body.isRound()) {
          if (auto read = actors::read_round_kept(body.getRound()); read.ok()) decisions = std::move(read).value();
        }
      }
      round = rounds.emplace(o.decision_seq, std::move(decisions)).first;
    }
    for (uint32_t i = 0; i < round->second.size(); ++i) {
      const actors::Decision& d = round->second[i];
      const auto* about = std::get_if<actors::UnitRef>(&d.target);
      const bool writes =
          o.write_kind == actors::WriteKind::kStatusPatch ? d.status_patch.has_value() : d.spec_queue_patch.has_value();
      if (about != nullptr && writes && about->namespace_ == unit->namespace_ && about->name == unit->name &&
          about->uid == unit->uid) {
        o.decision_index = i;
        break;
      }
    }
  }
  return out;
}

Result<OpenedServeJournal> open_serve_journal(const ServeOptions& options, const std::string& cluster,
                                              const std::function<void()>& on_quarantine) {
  journal::JournalOptions journal_options = journal_options_of(options);
  journal_options.cluster = cluster;
  if (!options.journal_signing_key_file.empty()) {
    auto key = journal::SigningKey::load(options.journal_signing_key_file);
    if (!key.ok()) {
      KQ_LOG_ERROR("cannot open the journal: --journal-signing-key-file: {}", key.message());
      return key.error();
    }
    journal_options.signing_key = std::make_shared<const journal::SigningKey>(std::move(key).value());
  }
  auto journal = journal::Journal::open(journal_options);
  if (!journal.ok()) {
    KQ_LOG_ERROR("cannot open the journal: {}", journal.message());
    return journal.error();
  }
  if (const auto& q = (*journal)->open_report().quarantined) {
    if (on_quarantine) on_quarantine();
    KQ_LOG_ERROR("journal corrupt at seq {}: moved to {}, new journal started ({})", q->first_bad_seq,
                 q->moved_to.string(), q->reason);
  }
  if ((*journal)->open_report().first_signed) {
    KQ_LOG_INFO(
        "journal {} is signed from now on by key {}: a start that finds HEAD unsigned refuses it as "
        "rewritten, and a start without the key refuses the journal",
        (*journal)->dir().string(), (*journal)->signing_key()->key_id());
  }
  // Before the first object is redacted: the watchers start after this.
  auto redaction_key = journal::load_or_create_redaction_key((*journal)->dir());
  if (!redaction_key.ok()) {
    KQ_LOG_ERROR("cannot open the journal: {}", redaction_key.message());
    return redaction_key.error();
  }
  schema::install_redaction_key(*redaction_key);
  auto restored = actors::restore_state((*journal)->reader(), UINT64_MAX, decision_config_of(options));
  if (!restored.ok()) {
    KQ_LOG_ERROR("cannot replay the journal: {}", restored.message());
    return restored.error();
  }
  if (restored->seq > 0) {
    KQ_LOG_INFO("state restored at seq {} ({}, then {} records)", restored->seq,
                restored->snapshot_seq ? "snapshot at seq " + std::to_string(*restored->snapshot_seq) : "no snapshot",
                restored->applied_records);
  }
  return OpenedServeJournal{std::move(journal).value(), std::move(restored->scheduler)};
}

Result<std::vector<uint64_t>> append_process_start(journal::Journal& journal, actors::Scheduler& scheduler,
                                                   std::unique_ptr<journal::CapnpRecordBody> config,
                                                   std::optional<int64_t> explicit_time) {
  std::vector<std::unique_ptr<journal::CapnpRecordBody>> bodies;
  bodies.push_back(std::move(config));
  for (const actors::Outcome& o : unanswered_writes(scheduler, journal.reader())) {
    bodies.push_back(actors::make_outcome_body(o));
  }
  std::vector<std::unique_ptr<journal::RecordBody>> opening;
  for (auto& body : bodies) {
    if (explicit_time) body->set_explicit_time(*explicit_time);
    opening.push_back(std::move(body));
  }
  auto appended = SyncAppender(journal.writer()).append(std::move(opening));
  if (!appended.ok()) {
    KQ_LOG_ERROR("journal write failed: {}", appended.message());
    return appended.error();
  }
  for (uint64_t seq : *appended) {
    auto record = journal.reader().get(seq);
    if (!record.ok() || !record->has_value()) {
      KQ_LOG_ERROR("cannot read back seq {}", seq);
      return make_error("cannot read back seq " + std::to_string(seq));
    }
    if (Status s = actors::apply_record(scheduler, **record); !s.ok()) {
      KQ_LOG_ERROR("{}", s.message());
      return s.error();
    }
  }
  if (appended->size() > 1) {
    KQ_LOG_INFO("{} writes of the previous process had no answer: journaled as unknown", appended->size() - 1);
  }
  return appended;
}

void JournalUpkeep::snapshot() {
  engine_.read_state([&](const actors::Scheduler& s, uint64_t seq) {
    if (seq == 0 || seq == last_snapshot_) return;
    last_snapshot_ = seq;
    if (Status st = actors::write_state_snapshot(journal_, s, seq, s.now(), journal_.uuid()); !st.ok()) {
      KQ_LOG_ERROR("snapshot at seq {} failed: {}", seq, st.message());
      return;
    }
    KQ_V(5)("snapshot at seq {}", seq);
  });
}

void JournalUpkeep::after_cycle() {
  if (engine_.applied_seq() >= last_snapshot_ + static_cast<uint64_t>(options_.snapshot_every)) snapshot();
  enforce_retention();
}

// Retention drops whole ranges behind a snapshot; checked every --snapshot-every records.
void JournalUpkeep::enforce_retention() {
  const uint64_t head = journal_.writer().durable_head().seq;
  if (head < retention_checked_ + static_cast<uint64_t>(options_.snapshot_every)) return;
  retention_checked_ = head;
  auto result = journal::apply_retention(journal_, retention_policy_of(options_));
  if (!result.ok()) {
    KQ_LOG_ERROR("journal retention failed: {}", result.message());
  } else if (result->dropped_records > 0 || result->dropped_snapshots > 0) {
    KQ_V(5)
    ("journal retention dropped {} records and {} snapshots; oldest retained seq {}", result->dropped_records,
     result->dropped_snapshots, result->first_seq);
  }
}

}  // namespace koordq::cmd
