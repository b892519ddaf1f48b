#include "controller/serve_start.hpp"

#include <utility>

#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "base/log.hpp"
#include "controller/sync_appender.hpp"
#include "controller/unanswered_writes.hpp"
#include "journal/redaction_key.hpp"
#include "journal/signing_key.hpp"
#include "schema/raw_object.hpp"

namespace koordq::controller {

Result<OpenedServeJournal> open_serve_journal(const StartOptions& options, const std::string& cluster,
                                              const std::function<void()>& on_quarantine) {
  journal::JournalOptions journal_options = options.journal;
  journal_options.cluster = cluster;
  if (!options.signing_key_file.empty()) {
    auto key = journal::SigningKey::load(options.signing_key_file);
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
  // Before the first object is redacted: the watchers start after this.
  if ((*journal)->open_report().first_signed) {
    KQ_LOG_INFO(
        "journal {} is signed from now on by key {}: a start that finds HEAD unsigned refuses it as "
        "rewritten, and a start without the key refuses the journal",
        (*journal)->dir().string(), (*journal)->signing_key()->key_id());
  }
  auto redaction_key = journal::load_or_create_redaction_key((*journal)->dir());
  if (!redaction_key.ok()) {
    KQ_LOG_ERROR("cannot open the journal: {}", redaction_key.message());
    return redaction_key.error();
  }
  schema::install_redaction_key(*redaction_key);
  auto restored = actors::restore_state((*journal)->reader(), UINT64_MAX, options.decision);
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

Result<ServeStart> start_serve(const StartOptions& options, const std::string& cluster, const StartHooks& hooks) {
  auto opened = open_serve_journal(options, cluster, hooks.on_quarantine);
  if (!opened.ok()) return opened.error();
  journal::Journal& journal = *opened->journal;
  actors::Scheduler& scheduler = opened->scheduler;
  ServeStart started;
  started.fresh = journal.reader().last_seq() == 0;
  std::optional<int64_t> time;
  if (hooks.start_time) time = hooks.start_time(scheduler);
  auto appended = append_process_start(journal, scheduler, hooks.config_record(journal), time);
  if (!appended.ok()) return appended.error();
  started.state_time = scheduler.now();
  started.engine = std::make_unique<actors::runtime::DecisionEngine>(options.engine, std::move(scheduler),
                                                                     journal.writer().durable_head().seq);
  started.journal = std::move(opened->journal);
  return started;
}

}  // namespace koordq::controller
