#include "controller/serve_loop.hpp"

#include <string_view>
#include <utility>

#include "actors/runtime/decision_log.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "base/log.hpp"
#include "controller/relist_changes.hpp"
#include "journal/watch_record.hpp"

namespace koordq::controller {
namespace {

constexpr size_t kWatchedResources = 3;  // ElasticQuotas, Queues, QueueUnits

// The store's message already says what failed; the §19 lines name it once.
std::string without_failure_prefix(std::string error) {
  constexpr std::string_view kPrefix = "journal write failed: ";
  if (error.rfind(kPrefix, 0) == 0) error.erase(0, kPrefix.size());
  return error;
}

}  // namespace

ServeLoop::ServeLoop(LoopOptions options, LoopParts parts)
    : options_(std::move(options)),
      journal_(parts.journal),
      engine_(parts.engine),
      source_(parts.source),
      observer_(parts.observer),
      make_writer_(std::move(parts.make_writer)),
      stop_requested_(std::move(parts.stop_requested)),
      failure_hooks_(std::move(parts.failure_hooks)),
      appender_(parts.journal.writer()),
      tick_policy_{options_.tick_min_interval_ns},
      upkeep_(options_.upkeep, parts.journal, parts.engine),
      seen_through_(parts.source.now()) {
  if (options_.leading_from_start) {
    leading_ = true;
    synced_ = true;
    announce_sync_ = true;
    writer_ = make_writer_();
  }
}

ServeLoop::~ServeLoop() {
  stop_writing();
}

ServeEnd ServeLoop::run() {
  while (!stop_requested_() && !source_.finished()) {
    if (Next end = step()) return *end;
  }
  stop_writing();
  return ServeEnd::kStopped;
}

std::optional<ServeEnd> ServeLoop::step() {
  if (failure_) {
    retry_failed_append();
    return std::nullopt;
  }
  arm_clock();
  bool tick_requested = false;
  for (LoopInput& in : source_.take(options_.take_wait)) {
    if (in.kind == LoopInput::Kind::kTick) {
      tick_requested = true;
      continue;
    }
    if (failure_) {
      deferred_.push_back(std::move(in));
      continue;
    }
    if (Next end = take(std::move(in))) return end;
  }
  if (failure_) return std::nullopt;
  if (batch_.empty()) {
    if (!tick_requested || !(leading_ && synced_)) return std::nullopt;
    // The clock's view may be older than this loop's (a round in between): the rule decides
    // again here, and a tick not due re-arms the clock.
    const int64_t now = source_.now();
    if (!tick_policy_.tick_due(now, engine_.next_deadline(), seen_through_, last_tick_)) {
      armed_.reset();
      return std::nullopt;
    }
    batch_.push_back(actors::make_tick_body());
    last_tick_ = now;
  }
  done(LoopStep::kInputsTaken);
  return cycle();
}

// The clock follows the state the loop decides on: the next deadline while deciding (leader,
// initial sync done, journal writable), none otherwise; re-armed only when that changes.
void ServeLoop::arm_clock() {
  if (!source_.has_clock()) return;
  const bool deciding = leading_ && synced_ && !failure_;
  const Armed want{deciding ? engine_.next_deadline() : std::nullopt, seen_through_};
  if (armed_ == want) return;
  source_.arm_clock(want.deadline, want.last_append);
  armed_ = want;
}

ServeLoop::Next ServeLoop::take(LoopInput in) {
  switch (in.kind) {
    case LoopInput::Kind::kRelist:
      return relist(in.resource, in.list);
    case LoopInput::Kind::kWatch:
      batch_.push_back(journal::make_watch_body(in.event, options_.raw_mode));
      return std::nullopt;
    case LoopInput::Kind::kOutcome:
      batch_.push_back(actors::make_outcome_body(in.outcome));
      return std::nullopt;
    case LoopInput::Kind::kRecord:
      batch_.push_back(std::move(in.body));
      return std::nullopt;
    case LoopInput::Kind::kAcquired:
      batch_.push_back(actors::make_role_body(actors::RoleEvent::kAcquired, in.text, in.lease_transitions));
      acquiring_ = true;
      return std::nullopt;
    case LoopInput::Kind::kLost: {
      stop_writing();
      batch_.push_back(actors::make_role_body(actors::RoleEvent::kLost, in.text, in.lease_transitions));
      if (Next end = cycle()) return end;
      return ServeEnd::kMustRestart;  // §19: exit 1, the container restarts from a clean state
    }
    case LoopInput::Kind::kFatal:
      stop_writing();
      KQ_LOG_ERROR("{}", in.text);
      return ServeEnd::kMustRestart;
    case LoopInput::Kind::kTick:
      return std::nullopt;  // deferred while the journal failed: the clock re-arms after it
  }
  return std::nullopt;
}

// A relist epoch (design.md §7) is diffed against the journaled state, so everything before it is
// applied first; the epoch then is one batch of its own.
ServeLoop::Next ServeLoop::relist(schema::ObjectKind kind, kube::ListSnapshot& list) {
  if (!batch_.empty()) {
    if (Next end = cycle()) return end;
    if (failure_) {
      LoopInput again;
      again.kind = LoopInput::Kind::kRelist;
      again.resource = kind;
      again.list = std::move(list);
      deferred_.push_front(std::move(again));
      return std::nullopt;
    }
  }
  const size_t listed = list.items.size();
  // Diffed on the router's state in place, while the router waits: no copy of the journaled objects.
  std::vector<kube::RelistEvent> changes;
  engine_.read_state([&](const actors::Scheduler& s, uint64_t) {
    changes = relist_changes(s, kind, std::move(list.items), options_.raw_mode);
  });
  batch_.push_back(actors::make_relist_body(actors::RelistPhase::kBegin, kind, list.resource_version));
  for (const auto& e : changes) batch_.push_back(journal::make_watch_body(e.event, options_.raw_mode, e.synthesized));
  batch_.push_back(actors::make_relist_body(actors::RelistPhase::kEnd, kind, list.resource_version));
  KQ_V(5)("relist of {}: {} objects listed, {} changes journaled", schema::kind_name(kind), listed, changes.size());
  observer_.relisted(schema::resource_name(kind));
  relisted_.insert(kind);
  return std::nullopt;
}

// One input batch, then on the leader its round and the round's writes. A failed append keeps the
// batch for the next attempt (§19).
ServeLoop::Next ServeLoop::cycle() {
  auto seqs = appender_.append(batch_);
  if (!seqs.ok()) return append_failed(seqs.message());
  batch_.clear();
  done(LoopStep::kBatchAppended);
  if (Next end = apply(*seqs)) return end;
  seen_through_ = last_applied_time_;
  done(LoopStep::kBatchApplied);
  if (acquiring_) {
    if (Next end = became_leader()) return end;
  }
  if (!synced_ && relisted_.size() == kWatchedResources) {
    synced_ = true;
    KQ_LOG_INFO("initial sync complete: every watched resource is listed and journaled (seq {})", seqs->back());
    if (Status s = observer_.initial_sync_done(); !s.ok()) return fail(s.message());
  }
  if (leading_ && synced_) return decide(seqs->back());
  upkeep_.after_cycle();
  return std::nullopt;
}

ServeLoop::Next ServeLoop::became_leader() {
  acquiring_ = false;
  leading_ = true;
  writer_ = make_writer_();
  if (Status s = observer_.became_leader(); !s.ok()) return fail(s.message());
  return std::nullopt;
}

ServeLoop::Next ServeLoop::decide(uint64_t basis) {
  auto decided = engine_.decide();
  if (!decided.ok()) return fail(decided.message());
  const std::vector<actors::Decision> decisions = std::move(decided).value();
  auto round = actors::make_round_body(basis, decisions);
  if (auto time = source_.round_time()) round->set_explicit_time(*time);
  Bodies round_batch{std::move(round)};
  auto round_seq = appender_.append(round_batch);
  // The round is dropped: its basis stays a batch without a round, as a follower's are.
  if (!round_seq.ok()) return append_failed(round_seq.message());
  done(LoopStep::kRoundAppended);
  if (Next end = apply(*round_seq)) return end;
  done(LoopStep::kRoundApplied);
  // The round is durable and applied: its writes go to the writer (§7.6).
  actors::runtime::log_round(round_seq->front(), decisions);
  if (writer_) writer_->carry_out(round_seq->front(), decisions);
  done(LoopStep::kWritesIssued);
  if (std::exchange(announce_sync_, false)) {
    if (Status s = observer_.initial_sync_done(); !s.ok()) return fail(s.message());
  }
  upkeep_.after_cycle();
  return std::nullopt;
}

ServeLoop::Next ServeLoop::append_failed(const std::string& error) {
  if (!options_.survive_journal_failures) return fail("journal write failed: " + error);
  journal_failed(error);
  return std::nullopt;
}

// §19: stop deciding and writing at once, answer /readyz 503, give the Lease up; keep the batch
// and everything that arrives meanwhile, and retry the append every second.
void ServeLoop::journal_failed(std::string error) {
  error = without_failure_prefix(std::move(error));
  const bool was_failing = failure_.has_value();
  if (!failure_) {
    if (leading_) {
      KQ_LOG_ERROR("journal write failed: {}; releasing leadership", error);
    } else {
      KQ_LOG_ERROR("journal write failed: {}; campaigning stops until an append succeeds", error);
    }
  }
  if (!failure_ && failure_hooks_.pause_ingestion) failure_hooks_.pause_ingestion();
  failure_ = error;
  observer_.journal_failure(error);
  if (leading_ || acquiring_) {
    stop_writing();
    observer_.stopped_leading();
    if (failure_hooks_.release) failure_hooks_.release();
  } else if (!was_failing && failure_hooks_.release) {
    // A follower stops campaigning too: a replica that cannot journal must not win the Lease and
    // hold it without deciding while a healthy one waits.
    failure_hooks_.release();
  }
}

void ServeLoop::retry_failed_append() {
  for (LoopInput& in : source_.take(std::chrono::seconds(1))) deferred_.push_back(std::move(in));
  if (stop_requested_()) return;
  // Only an append that succeeds ends the failure (§19). When the round was what failed, its
  // batch is durable already, so a tick tries the journal: a batch without a round, as a
  // follower's (this replica no longer leads).
  if (batch_.empty()) batch_.push_back(actors::make_tick_body());
  auto seqs = appender_.append(batch_);
  if (!seqs.ok()) {
    KQ_V(1)("journal append still failing: {}", without_failure_prefix(seqs.message()));
    return;
  }
  batch_.clear();
  if (apply(*seqs)) return;
  seen_through_ = last_applied_time_;
  KQ_LOG_INFO("journal writes succeed again: ingestion resumes ({} inputs waited)", deferred_.size());
  failure_.reset();
  observer_.journal_failure(std::nullopt);
  if (failure_hooks_.resume) failure_hooks_.resume();
  while (!deferred_.empty() && !failure_) {
    LoopInput in = std::move(deferred_.front());
    deferred_.pop_front();
    if (take(std::move(in))) break;
  }
  if (!failure_ && failure_hooks_.resume_ingestion) failure_hooks_.resume_ingestion();
}

void ServeLoop::stop_writing() {
  leading_ = false;
  acquiring_ = false;
  if (writer_) writer_->stop();
  writer_.reset();
}

// The live state folds the durable records read back from the journal, as a replay does.
ServeLoop::Next ServeLoop::apply(const std::vector<uint64_t>& seqs) {
  std::vector<journal::StoredRecord> records;
  for (uint64_t seq : seqs) {
    auto record = journal_.reader().get(seq);
    if (!record.ok() || !record->has_value()) return fail("cannot read back seq " + std::to_string(seq));
    last_applied_time_ = (*record)->time();
    records.push_back(std::move(**record));
  }
  if (Status s = engine_.apply(std::move(records)); !s.ok()) return fail(s.message());
  return std::nullopt;
}

ServeLoop::Next ServeLoop::fail(const std::string& message) {
  stop_writing();
  KQ_LOG_ERROR("{}", message);
  return ServeEnd::kJournalFailed;
}

}  // namespace koordq::controller
