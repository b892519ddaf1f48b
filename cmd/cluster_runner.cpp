#include "cmd/cluster_runner.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/runtime/clock.hpp"
#include "actors/runtime/decision_engine.hpp"
#include "actors/runtime/decision_log.hpp"
#include "actors/runtime/tick_policy.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "api/auth_configmap.hpp"
#include "api/subject_access_review.hpp"
#include "base/log.hpp"
#include "cmd/cluster_inbox.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_witness_writer.hpp"
#include "cmd/serve_config.hpp"
#include "cmd/serve_startup_log.hpp"
#include "cmd/serve_state.hpp"
#include "cmd/serve_surfaces.hpp"
#include "cmd/stop_signal.hpp"
#include "cmd/sync_appender.hpp"
#include "cmd/wall_clock.hpp"
#include "journal/journal.hpp"
#include "journal/watch_record.hpp"
#include "kube/client/client_config.hpp"
#include "kube/client/cluster_identity.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/object_watch.hpp"
#include "kube/client/resource_watcher.hpp"
#include "kube/events/event_recorder.hpp"
#include "kube/ingest/relist_diff.hpp"
#include "kube/leader/leader_elector.hpp"
#include "kube/writer/api_writer.hpp"

namespace koordq::cmd {
namespace {

using Bodies = std::vector<std::shared_ptr<const journal::RecordBody>>;

// What a journal write failure and its recovery do outside the loop (§19): the election gives the
// Lease up and campaigns again; watch ingestion pauses and resumes (a fresh relist epoch per
// resource, diffed against the journaled state, so nothing that changed meanwhile is missed).
struct JournalFailureHooks {
  std::function<void()> release;           // give the Lease up; campaign no more
  std::function<void()> resume;            // campaign again
  std::function<void()> pause_ingestion;   // stop the watchers
  std::function<void()> resume_ingestion;  // start them again
};

// The store's message already says what failed; the §19 lines name it once.
std::string without_failure_prefix(std::string error) {
  constexpr std::string_view kPrefix = "journal write failed: ";
  if (error.rfind(kPrefix, 0) == 0) error.erase(0, kPrefix.size());
  return error;
}

LoopInput tick_input() {
  LoopInput in;
  in.kind = LoopInput::Kind::kTick;
  return in;
}

class ClusterLoop {
 public:
  ClusterLoop(const ServeOptions& options, journal::Journal& journal, actors::runtime::DecisionEngine& engine,
              ServeSurfaces& surfaces, ClusterInbox& inbox, std::function<std::unique_ptr<kube::ApiWriter>()> writers,
              std::function<std::unique_ptr<kube::EventRecorder>()> recorders, JournalFailureHooks failure_hooks)
      : options_(options),
        journal_(journal),
        engine_(engine),
        surfaces_(surfaces),
        inbox_(inbox),
        make_writer_(std::move(writers)),
        make_recorder_(std::move(recorders)),
        failure_hooks_(std::move(failure_hooks)),
        appender_(journal.writer()),
        tick_policy_{options.tick_min_interval_ns},
        clock_(engine, tick_policy_, {wall_now, [&inbox](int64_t) { inbox.push(tick_input()); }}),
        upkeep_(options, journal, engine),
        seen_through_(wall_now()) {}

  int run() {
    while (!stop_requested()) {
      if (failure_) {
        retry_failed_append();
        continue;
      }
      arm_clock();
      tick_requested_ = false;
      for (LoopInput& in : inbox_.take(std::chrono::milliseconds(100))) {
        if (in.kind == LoopInput::Kind::kTick) {
          tick_requested_ = true;
          continue;
        }
        if (failure_) {
          deferred_.push_back(std::move(in));
          continue;
        }
        if (int code = take(std::move(in)); code != kExitSuccess) return code;
      }
      if (failure_) continue;
      if (batch_.empty()) {
        if (!tick_requested_ || !(leading_ && synced_)) continue;
        // The clock's view may be older than this loop's (a round in between): the rule decides
        // again here, and a tick not due re-arms the clock.
        const int64_t now = wall_now();
        if (!tick_policy_.tick_due(now, engine_.next_deadline(), seen_through_, last_tick_)) {
          armed_.reset();
          continue;
        }
        batch_.push_back(actors::make_tick_body());
        last_tick_ = now;
      }
      if (int code = cycle(); code != kExitSuccess) return code;
    }
    stop_writing();
    return kExitSuccess;
  }

  void snapshot() { upkeep_.snapshot(); }

 private:
  // The clock follows the state the loop decides on: the next deadline while deciding (leader,
  // initial sync done, journal writable), none otherwise; re-armed only when that changes.
  void arm_clock() {
    const bool deciding = leading_ && synced_ && !failure_;
    const Armed want{deciding ? engine_.next_deadline() : std::nullopt, seen_through_};
    if (armed_ == want) return;
    clock_.arm(want.deadline, want.last_append);
    armed_ = want;
  }

  int take(LoopInput in) {
    switch (in.kind) {
      case LoopInput::Kind::kRelist:
        return relist(in.resource, in.list);
      case LoopInput::Kind::kWatch:
        batch_.push_back(journal::make_watch_body(in.event, raw_object_mode_of(options_)));
        return kExitSuccess;
      case LoopInput::Kind::kOutcome:
        batch_.push_back(actors::make_outcome_body(in.outcome));
        return kExitSuccess;
      case LoopInput::Kind::kAcquired:
        batch_.push_back(actors::make_role_body(actors::RoleEvent::kAcquired, in.text, in.lease_transitions));
        acquiring_ = true;
        return kExitSuccess;
      case LoopInput::Kind::kLost: {
        stop_writing();
        batch_.push_back(actors::make_role_body(actors::RoleEvent::kLost, in.text, in.lease_transitions));
        if (int code = cycle(); code != kExitSuccess) return code;
        return kExitCheckFailed;  // §19: exit 1, the container restarts from a clean state
      }
      case LoopInput::Kind::kFatal:
        stop_writing();
        KQ_LOG_ERROR("{}", in.text);
        return kExitCheckFailed;
      case LoopInput::Kind::kTick:
        return kExitSuccess;  // deferred while the journal failed: the clock re-arms after it
    }
    return kExitSuccess;
  }

  // A relist epoch (design.md §7) is diffed against the journaled state, so everything before it
  // is applied first; the epoch then is one batch of its own.
  int relist(schema::ObjectKind kind, kube::ListSnapshot& list) {
    if (!batch_.empty()) {
      if (int code = cycle(); code != kExitSuccess) return code;
      if (failure_) {
        LoopInput again;
        again.kind = LoopInput::Kind::kRelist;
        again.resource = kind;
        again.list = std::move(list);
        deferred_.push_front(std::move(again));
        return kExitSuccess;
      }
    }
    const size_t listed = list.items.size();
    const schema::RawObjectMode raw_mode = raw_object_mode_of(options_);
    // Diffed on the router's state in place, while the router waits: no copy of the journaled objects.
    std::vector<kube::RelistEvent> changes;
    engine_.read_state([&](const actors::Scheduler& s, uint64_t) {
      changes = relist_changes(s, kind, std::move(list.items), raw_mode);
    });
    batch_.push_back(actors::make_relist_body(actors::RelistPhase::kBegin, kind, list.resource_version));
    for (const auto& e : changes) batch_.push_back(journal::make_watch_body(e.event, raw_mode, e.synthesized));
    batch_.push_back(actors::make_relist_body(actors::RelistPhase::kEnd, kind, list.resource_version));
    KQ_V(5)("relist of {}: {} objects listed, {} changes journaled", schema::kind_name(kind), listed, changes.size());
    surfaces_.metrics().count_relist(resource_name(kind));
    relisted_.insert(kind);
    return kExitSuccess;
  }

  static const char* resource_name(schema::ObjectKind kind) {
    switch (kind) {
      case schema::ObjectKind::kElasticQuota:
        return "elasticquotas";
      case schema::ObjectKind::kQueue:
        return "queues";
      case schema::ObjectKind::kQueueUnit:
        break;
    }
    return "queueunits";
  }

  // One input batch, then on the leader its round and the round's writes. A failed append keeps
  // the batch for the next attempt (§19).
  int cycle() {
    auto seqs = appender_.append(batch_);
    if (!seqs.ok()) {
      journal_failed(seqs.message());
      return kExitSuccess;
    }
    batch_.clear();
    if (int code = apply(*seqs); code != kExitSuccess) return code;
    seen_through_ = last_applied_time_;
    if (acquiring_) {
      acquiring_ = false;
      leading_ = true;
      writer_ = make_writer_();
      recorder_ = make_recorder_();
      if (Status s = surfaces_.became_leader(); !s.ok()) return fail(s.message());
    }
    if (!synced_ && relisted_.size() == 3) {
      synced_ = true;
      KQ_LOG_INFO("initial sync complete: every watched resource is listed and journaled (seq {})", seqs->back());
      if (Status s = surfaces_.initial_sync_done(); !s.ok()) return fail(s.message());
    }
    if (leading_ && synced_) return decide(seqs->back());
    upkeep_.after_cycle();
    return kExitSuccess;
  }

  int decide(uint64_t basis) {
    auto decided = engine_.decide();
    if (!decided.ok()) return fail(decided.message());
    std::vector<actors::Decision> decisions = std::move(decided).value();
    Bodies round{actors::make_round_body(basis, decisions)};
    auto round_seq = appender_.append(round);
    if (!round_seq.ok()) {
      // The round is dropped: its basis stays a batch without a round, as a follower's are.
      journal_failed(round_seq.message());
      return kExitSuccess;
    }
    if (int code = apply(*round_seq); code != kExitSuccess) return code;
    dispatch(round_seq->front(), decisions);
    upkeep_.after_cycle();
    return kExitSuccess;
  }

  // §19: stop deciding and writing at once, answer /readyz 503, give the Lease up; keep the
  // batch and everything that arrives meanwhile, and retry the append every second.
  void journal_failed(std::string error) {
    error = without_failure_prefix(std::move(error));
    if (!failure_) {
      if (leading_) {
        KQ_LOG_ERROR("journal write failed: {}; releasing leadership", error);
      } else {
        KQ_LOG_ERROR("journal write failed: {}", error);
      }
    }
    if (!failure_ && failure_hooks_.pause_ingestion) failure_hooks_.pause_ingestion();
    failure_ = error;
    surfaces_.set_journal_failure(error);
    if (leading_ || acquiring_) {
      stop_writing();
      surfaces_.stopped_leading();
      if (failure_hooks_.release) failure_hooks_.release();
    }
  }

  void retry_failed_append() {
    for (LoopInput& in : inbox_.take(std::chrono::seconds(1))) deferred_.push_back(std::move(in));
    if (stop_requested()) return;
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
    if (apply(*seqs) != kExitSuccess) return;
    seen_through_ = last_applied_time_;
    KQ_LOG_INFO("journal writes succeed again: ingestion resumes ({} inputs waited)", deferred_.size());
    failure_.reset();
    surfaces_.set_journal_failure(std::nullopt);
    if (failure_hooks_.resume) failure_hooks_.resume();
    while (!deferred_.empty() && !failure_) {
      LoopInput in = std::move(deferred_.front());
      deferred_.pop_front();
      if (take(std::move(in)) != kExitSuccess) break;
    }
    if (!failure_ && failure_hooks_.resume_ingestion) failure_hooks_.resume_ingestion();
  }

  void stop_writing() {
    leading_ = false;
    acquiring_ = false;
    if (writer_) writer_->stop();
    writer_.reset();
    if (recorder_) recorder_->stop();
    recorder_.reset();
  }

  // The round is durable and applied: its writes go to the writers (§7.6), with what the 409
  // check and the failure-write limit need from the state the round was applied to.
  void dispatch(uint64_t round_seq, const std::vector<actors::Decision>& decisions) {
    actors::runtime::log_round(round_seq, decisions);
    if (decisions.empty() || !writer_) return;
    std::vector<kube::UnitWrite> unit_writes;
    engine_.read_state([&](const actors::Scheduler& s, uint64_t) {
      for (uint32_t i = 0; i < decisions.size(); ++i) {
        const actors::Decision& d = decisions[i];
        const auto* ref = std::get_if<actors::UnitRef>(&d.target);
        if (ref == nullptr || (!d.status_patch && !d.spec_queue_patch)) continue;
        kube::UnitWrite w;
        w.unit = *ref;
        w.decision_seq = round_seq;
        w.decision_index = i;
        w.status = d.status_patch;
        w.spec_queue = d.spec_queue_patch;
        w.spec_queue_seq = round_seq;
        w.spec_queue_index = i;
        if (d.status_patch) {
          w.changes_phase = d.status_patch->phase || d.status_patch->admissions || d.status_patch->admission_checks;
        }
        w.failure = d.kind == actors::DecisionKind::kFail;
        if (auto u = s.units().find(ref->namespace_ + "/" + ref->name); u != s.units().end()) {
          w.observed_phase = u->second.object.status.phase;
          w.observed_spec = u->second.object.spec;
          w.observed_labels = u->second.object.metadata.labels;
          // After koordq's own landed status write when the watch has not yet shown it.
          w.resource_version = u->second.pending_written_rv.empty() ? u->second.object.metadata.resource_version
                                                                    : u->second.pending_written_rv;
          if (u->second.backoff_until) w.backoff_ns = std::max<int64_t>(*u->second.backoff_until - s.now(), 0);
        }
        unit_writes.push_back(std::move(w));
      }
    });
    std::vector<kube::QueueWriteJob> queue_writes;
    engine_.read_state([&](const actors::Scheduler& s, uint64_t) {
      for (uint32_t i = 0; i < decisions.size(); ++i) {
        const actors::Decision& d = decisions[i];
        if (!d.queue_write) continue;
        const auto* ref = std::get_if<actors::QueueRef>(&d.target);
        if (ref == nullptr) continue;
        kube::QueueWriteJob job{ref->name, *d.queue_write, "", round_seq, i};
        if (auto q = s.queues().find(ref->name); q != s.queues().end()) {
          job.resource_version = q->second.object.metadata.resource_version;  // the precondition
        }
        queue_writes.push_back(std::move(job));
      }
    });
    for (auto& w : unit_writes) writer_->submit(std::move(w));
    for (auto& job : queue_writes) writer_->submit(std::move(job));
    record_events(round_seq, decisions);
  }

  // §13.2: an event's name carries the round's seq and its index among the round's events for
  // the same involved object.
  void record_events(uint64_t round_seq, const std::vector<actors::Decision>& decisions) {
    if (!recorder_) return;
    std::map<std::tuple<std::string, std::string, std::string, std::string>, uint32_t> per_object;
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      for (uint32_t j = 0; j < decisions[i].events.size(); ++j) {
        const actors::KubeEvent& e = decisions[i].events[j];
        const auto& o = e.involved_object;
        uint32_t& index = per_object[{o.kind, o.namespace_, o.name, o.uid}];
        recorder_->record(kube::EventToRecord{e, round_seq, index++, i, j, decisions[i].target});
      }
    }
  }

  int apply(const std::vector<uint64_t>& seqs) {
    std::vector<journal::StoredRecord> records;
    for (uint64_t seq : seqs) {
      auto record = journal_.reader().get(seq);
      if (!record.ok() || !record->has_value()) return fail("cannot read back seq " + std::to_string(seq));
      last_applied_time_ = (*record)->time();
      records.push_back(std::move(**record));
    }
    if (Status s = engine_.apply(std::move(records)); !s.ok()) return fail(s.message());
    return kExitSuccess;
  }

  int fail(const std::string& message) {
    stop_writing();
    KQ_LOG_ERROR("{}", message);
    return kExitJournalUnreadable;
  }

  const ServeOptions& options_;
  journal::Journal& journal_;
  actors::runtime::DecisionEngine& engine_;
  ServeSurfaces& surfaces_;
  ClusterInbox& inbox_;
  std::function<std::unique_ptr<kube::ApiWriter>()> make_writer_;
  std::function<std::unique_ptr<kube::EventRecorder>()> make_recorder_;
  JournalFailureHooks failure_hooks_;
  std::unique_ptr<kube::ApiWriter> writer_;  // while leading
  std::unique_ptr<kube::EventRecorder> recorder_;
  std::optional<std::string> failure_;  // the journal append failing, §19
  std::deque<LoopInput> deferred_;      // inputs that arrived while it failed (ingestion paused)
  SyncAppender appender_;
  actors::runtime::TickPolicy tick_policy_;
  actors::runtime::Clock clock_;
  struct Armed {
    std::optional<int64_t> deadline;
    int64_t last_append = 0;
    bool operator==(const Armed&) const = default;
  };
  std::optional<Armed> armed_;  // what the clock was last armed with
  bool tick_requested_ = false;
  JournalUpkeep upkeep_;
  Bodies batch_;
  std::set<schema::ObjectKind> relisted_;
  bool synced_ = false;
  bool acquiring_ = false;
  bool leading_ = false;
  // The time of the last record a round has seen (its basis): a deadline after it needs a tick;
  // one before it was served by that round (the round record's own time does not count).
  int64_t seen_through_;
  int64_t last_applied_time_ = 0;
  std::optional<int64_t> last_tick_;
};

kube::LeaderElectionOptions election_options_of(const ServeOptions& o) {
  kube::LeaderElectionOptions e;
  e.lease_namespace = o.leader_election_namespace;
  e.lease_name = o.leader_election_id;
  e.identity = kube::make_leader_identity();
  e.lease_duration = std::chrono::milliseconds(o.leader_elect_lease_duration_ns / 1'000'000);
  e.renew_deadline = std::chrono::milliseconds(o.leader_elect_renew_deadline_ns / 1'000'000);
  e.retry_period = std::chrono::milliseconds(o.leader_elect_retry_period_ns / 1'000'000);
  if (o.legacy_lease_guard) {
    e.legacy_guard = std::pair{o.legacy_lease_guard->namespace_name, o.legacy_lease_guard->name};
  } else {
    e.legacy_guard.reset();
  }
  e.enabled = o.leader_elect;
  // Outside a cluster (no POD_NAME/POD_NAMESPACE) the Pod label steps are skipped (§19).
  const char* pod = std::getenv("POD_NAME");
  const char* ns = std::getenv("POD_NAMESPACE");
  if (pod != nullptr && *pod != '\0' && ns != nullptr && *ns != '\0') {
    e.pod_name = pod;
    e.pod_namespace = ns;
  }
  return e;
}

kube::HttpOptions http_options_of(const ServeOptions& options, ServeSurfaces& surfaces) {
  kube::HttpOptions http;
  http.qps = options.qps;
  http.burst = static_cast<int>(options.burst);
  http.observer.on_request = [&surfaces](const kube::RequestRecord& r) {
    surfaces.metrics().observe_request(std::string(r.verb), std::string(r.host), r.code, r.duration.count());
  };
  return http;
}

// POSTs a SubjectAccessReview; anything but a 201 with a body is an error naming the answer.
api::VisibilityAuthorizer::Review subject_access_review_sender(kube::HttpClient& client) {
  return [&client](const std::string& body) -> Result<std::string> {
    kube::Request request;
    request.verb = kube::Verb::kPost;
    request.target = std::string(api::kSubjectAccessReviewsPath);
    request.body = body;
    auto answer = client.send(request);
    if (!answer.ok()) return answer.error();
    if (!answer->ok()) {
      return make_error("POST " + request.target + " answered " + std::to_string(answer->status) + ": " +
                        answer->body.substr(0, 300));
    }
    return std::move(answer->body);
  };
}

// The identity of the cluster served (§2.1), asked again every 2 s while the API server cannot
// answer. std::nullopt with `exit_code` set: refused (exit 2), or a stop was asked for (exit 0).
std::optional<std::string> cluster_uid(kube::HttpClient& client, int& exit_code) {
  for (;;) {
    kube::ClusterIdentity identity = kube::read_cluster_identity(client);
    if (identity.ok()) {
      KQ_V(1)("cluster identity: kube-system Namespace uid {}", identity.uid);
      return identity.uid;
    }
    if (!identity.retryable) {
      KQ_LOG_ERROR("cannot tell which cluster this is: {}", identity.error);
      exit_code = kExitUsage;
      return std::nullopt;
    }
    KQ_LOG_WARNING("cannot tell which cluster this is yet: {}; asking again in 2 s", identity.error);
    for (int i = 0; i < 20; ++i) {
      if (stop_requested()) {
        exit_code = kExitSuccess;
        return std::nullopt;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

}  // namespace

int run_cluster(const ServeOptions& options) {
  install_stop_signal_handlers();
  log_serve_endpoints(options);
  auto config = kube::resolve_client_config(options.kubeconfig, kube::process_environment());
  if (!config.ok()) {
    KQ_LOG_ERROR("{}", config.message());
    return kExitUsage;
  }
  KQ_LOG_INFO("API server {}:{} ({})", config->host, config->port, config->source);
  auto surfaces = ServeSurfaces::start(options, wall_now);
  if (!surfaces.ok()) {
    KQ_LOG_ERROR("{}", surfaces.message());
    return kExitUsage;
  }
  auto client = kube::HttpClient::create(*config, http_options_of(options, **surfaces));
  if (!client.ok()) {
    KQ_LOG_ERROR("{}", client.message());
    return kExitUsage;
  }
  // §16.8: the visibility API's SubjectAccessReviews on a client of their own, so that readers
  // never spend the watchers' and writers' --qps budget; answers within 10 s.
  kube::HttpOptions review_http = http_options_of(options, **surfaces);
  review_http.read_timeout = std::chrono::seconds(10);
  auto review_client = kube::HttpClient::create(*config, review_http);
  if (!review_client.ok()) {
    KQ_LOG_ERROR("{}", review_client.message());
    return kExitUsage;
  }
  (*surfaces)->use_authorizer(subject_access_review_sender(**review_client));
  (*surfaces)->use_apiservice_client(**review_client);
  ServeSurfaces& served = **surfaces;
  int refused = kExitSuccess;
  const std::optional<std::string> cluster = cluster_uid(**client, refused);
  if (!cluster) return refused;
  auto opened_journal = open_serve_journal(options, *cluster, [&served] { served.metrics().count_quarantine(); });
  if (!opened_journal.ok()) return kExitJournalUnreadable;
  journal::Journal& j = *opened_journal->journal;
  actors::Scheduler scheduler = std::move(opened_journal->scheduler);

  // The start of this process in the journal, then the answers the previous one never got.
  if (!append_process_start(j, scheduler, make_config_body(options, j.uuid(), j.open_report().quarantined)).ok()) {
    return kExitJournalUnreadable;
  }

  actors::runtime::DecisionEngine engine(
      {static_cast<size_t>(options.actor_threads), (*surfaces)->latency_observer(), true}, std::move(scheduler),
      j.writer().durable_head().seq);
  struct StopSurfaces {
    ServeSurfaces& surfaces;
    ~StopSurfaces() { surfaces.stop(); }
  } stop_surfaces{**surfaces};
  kube::HttpClient& api_client = **client;
  // §16.1: without --visibility-client-ca-file the visibility API's client authentication follows
  // the cluster's ConfigMap, watched for as long as koordq serves.
  std::unique_ptr<kube::ObjectWatch> auth_watch;
  if (options.enable_visibility_server && options.visibility_client_ca_file.empty()) {
    ServeSurfaces& surfaces_ref = **surfaces;
    surfaces_ref.use_cluster_client_auth();
    kube::ObjectWatchOptions watch;
    watch.collection = std::string(api::kAuthConfigMapCollection);
    watch.name = std::string(api::kAuthConfigMapName);
    watch.on_object = [&surfaces_ref](std::string_view json) {
      surfaces_ref.cluster_client_auth_changed(std::string(json));
    };
    // Recovered from by the watch itself, as the resource watchers' problems are: warnings. An
    // unusable CA or no CA at all is the error (§16.1), logged where it is applied or missing.
    watch.on_problem = [](const std::string& message) {
      KQ_LOG_WARNING("visibility API client authentication: {}", message);
    };
    auth_watch = std::make_unique<kube::ObjectWatch>(api_client, std::move(watch));
    if (Status started = auth_watch->start(); !started.ok()) {
      KQ_LOG_ERROR("visibility API client authentication: {}; retrying in the background", started.message());
    }
  }
  if (Status attached = (*surfaces)->attach(j, engine, false); !attached.ok()) {
    KQ_LOG_ERROR("{}", attached.message());
    return kExitUsage;
  }

  ClusterInbox inbox;
  // §19: the elector opens it on every renewal and closes it when leading ends; the writers check
  // it immediately before each request leaves, so they stop at once, not through the inbox.
  kube::WriteFence fence;
  kube::ApiWriterOptions writer_options;
  writer_options.queue_namespace = options.queue_namespace;
  writer_options.fence = &fence;
  writer_options.now = wall_now;
  writer_options.on_outcome = [&inbox](const actors::Outcome& o) {
    LoopInput in;
    in.kind = LoopInput::Kind::kOutcome;
    in.outcome = o;
    inbox.push(std::move(in));
  };
  auto writers = [&api_client, writer_options] {
    return std::make_unique<kube::ApiWriter>(api_client, writer_options);
  };
  kube::LeaderElectionOptions election = election_options_of(options);
  election.fence = &fence;
  kube::EventRecorderOptions recorder_options;
  recorder_options.reporting_instance = election.identity;
  recorder_options.now = wall_now;
  recorder_options.on_outcome = writer_options.on_outcome;
  kube::EventRecorderOptions own_pod_recorder_options = recorder_options;
  recorder_options.fence = &fence;
  auto recorders = [&api_client, recorder_options] {
    return std::make_unique<kube::EventRecorder>(api_client, recorder_options);
  };
  // §13.1: JournalQuarantined on the replica's own Pod, leader or not (so not fenced).
  std::unique_ptr<kube::EventRecorder> quarantine_recorder;
  if (const auto& q = j.open_report().quarantined; q && !election.pod_name.empty()) {
    quarantine_recorder = std::make_unique<kube::EventRecorder>(api_client, own_pod_recorder_options);
    actors::KubeEvent e;
    e.involved_object = {"Pod", "v1", election.pod_namespace, election.pod_name, ""};
    e.warning = true;
    e.reason = "JournalQuarantined";
    e.message = "journal corrupt at seq " + std::to_string(q->first_bad_seq) + ": moved to " + q->moved_to.string() +
                ", new journal started";
    quarantine_recorder->record(kube::EventToRecord{e, 1, 0, 0, 0, actors::Target{}});
  }

  InboxSink sink(inbox);
  kube::WatcherOptions watch;
  watch.raw_mode = raw_object_mode_of(options);
  watch.watch_timeout_min = std::chrono::seconds(options.watch_timeout_ns / base::kSecond);
  watch.watch_timeout_max = 2 * watch.watch_timeout_min;
  std::vector<std::unique_ptr<kube::ResourceWatcher>> watchers;
  auto start_watchers = [&] {
    watchers.clear();
    for (auto resource : {kube::elastic_quotas_resource(), kube::queues_resource(options.queue_namespace),
                          kube::queue_units_resource()}) {
      watchers.push_back(std::make_unique<kube::ResourceWatcher>(**client, resource, sink, watch));
      watchers.back()->start();
    }
  };
  auto stop_watchers = [&watchers] {
    for (auto& w : watchers) w->stop();
  };
  start_watchers();

  kube::LeaderElector* elector_of_callbacks = nullptr;  // set before start(), the callbacks' only caller
  auto push = [&inbox, &elector_of_callbacks](LoopInput::Kind kind, std::string text) {
    LoopInput in;
    in.kind = kind;
    in.text = std::move(text);
    if (elector_of_callbacks != nullptr) {
      in.lease_transitions = static_cast<int32_t>(elector_of_callbacks->lease_transitions());
    }
    inbox.push(std::move(in));
  };
  kube::LeaderCallbacks callbacks;
  const std::string identity = election.identity;
  callbacks.on_started_leading = [push, identity] { push(LoopInput::Kind::kAcquired, identity); };
  callbacks.on_stopped_leading = [push, identity] { push(LoopInput::Kind::kLost, identity); };
  callbacks.on_fatal = [push](const std::string& message) { push(LoopInput::Kind::kFatal, message); };
  kube::LeaderElector elector(api_client, election, callbacks);
  elector_of_callbacks = &elector;
  elector.start();
  KQ_LOG_INFO("leader election: Lease {}/{} as {}{}", election.lease_namespace, election.lease_name, identity,
              options.leader_elect ? "" : " (--leader-elect=false: leading without a Lease)");

  // §24.5: the leader's journal head, witnessed in a ConfigMap on a thread of its own, fenced as
  // every leader write; on the visibility API's client, so it never waits behind the writers' --qps.
  std::unique_ptr<JournalWitnessWriter> witness;
  if (!options.journal_witness_configmap.empty()) {
    WitnessWriterOptions w;
    w.namespace_name = options.leader_election_namespace;
    w.name = options.journal_witness_configmap;
    w.period = std::chrono::nanoseconds(options.journal_witness_period_ns);
    w.history = static_cast<size_t>(options.journal_witness_history);
    w.journal_uuid = j.uuid();
    w.cluster = *cluster;
    w.key = j.signing_key();
    w.fence = &fence;
    w.head = [&j] { return j.writer().durable_head(); };
    w.reader = &j.reader();
    w.now = wall_now;
    witness = std::make_unique<JournalWitnessWriter>(**review_client, std::move(w));
    witness->start();
  }

  ClusterLoop loop(options, j, engine, **surfaces, inbox, writers, recorders,
                   JournalFailureHooks{[&elector] { elector.release(); }, [&elector] { elector.resume(); },
                                       [&] {
                                         stop_watchers();
                                         KQ_LOG_INFO("watch ingestion paused until the journal can be written");
                                       },
                                       [&] {
                                         start_watchers();
                                         KQ_LOG_INFO("watch ingestion resumed: relisting every watched resource");
                                       }});
  int code = loop.run();
  if (witness) witness->stop();
  stop_watchers();
  elector.stop();
  if (quarantine_recorder) quarantine_recorder->stop();
  loop.snapshot();
  KQ_LOG_INFO("serve stopped; journal head seq {}", j.writer().durable_head().seq);
  return code;
}

}  // namespace koordq::cmd
