#include "controller/cluster_serve.hpp"

#include <chrono>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "base/log.hpp"
#include "controller/api_round_writer.hpp"
#include "controller/cluster_inbox.hpp"
#include "kube/client/cluster_identity.hpp"
#include "kube/events/event_recorder.hpp"
#include "kube/writer/api_writer.hpp"

namespace koordq::controller {
namespace {

// The identity of the cluster served (§2.1), asked again every 2 s while the API server cannot
// answer. std::nullopt with `end` set: refused, or a stop was asked for.
std::optional<std::string> cluster_uid(kube::HttpClient& client, const std::function<bool()>& stop_requested,
                                       ServeEnd& end) {
  for (;;) {
    kube::ClusterIdentity identity = kube::read_cluster_identity(client);
    if (identity.ok()) {
      KQ_V(1)("cluster identity: kube-system Namespace uid {}", identity.uid);
      return identity.uid;
    }
    if (!identity.retryable) {
      KQ_LOG_ERROR("cannot tell which cluster this is: {}", identity.error);
      end = ServeEnd::kRefused;
      return std::nullopt;
    }
    KQ_LOG_WARNING("cannot tell which cluster this is yet: {}; asking again in 2 s", identity.error);
    for (int i = 0; i < 20; ++i) {
      if (stop_requested()) {
        end = ServeEnd::kStopped;
        return std::nullopt;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

// §13.1: JournalQuarantined on the replica's own Pod, leader or not (so not fenced).
std::unique_ptr<kube::EventRecorder> record_quarantine(const journal::Journal& journal, kube::HttpClient& client,
                                                       const kube::LeaderElectionOptions& election,
                                                       const kube::EventRecorderOptions& options) {
  const auto& q = journal.open_report().quarantined;
  if (!q || election.pod_name.empty()) return nullptr;
  auto recorder = std::make_unique<kube::EventRecorder>(client, options);
  actors::KubeEvent e;
  e.involved_object = {"Pod", "v1", election.pod_namespace, election.pod_name, ""};
  e.warning = true;
  e.reason = "JournalQuarantined";
  e.message = "journal corrupt at seq " + std::to_string(q->first_bad_seq) + ": moved to " + q->moved_to.string() +
              ", new journal started";
  recorder->record(kube::EventToRecord{e, 1, 0, 0, 0, actors::Target{}});
  return recorder;
}

// The three watchers feeding the inbox; stopped and started again around a journal failure.
class Watchers {
 public:
  Watchers(kube::HttpClient& client, const ClusterServeOptions& options, ClusterInbox& inbox)
      : client_(client), options_(options), sink_(inbox) {}
  ~Watchers() { stop(); }

  void start() {
    watchers_.clear();
    for (auto resource : {kube::elastic_quotas_resource(), kube::queues_resource(options_.queue_namespace),
                          kube::queue_units_resource()}) {
      watchers_.push_back(std::make_unique<kube::ResourceWatcher>(client_, resource, sink_, options_.watch));
      watchers_.back()->start();
    }
  }
  void stop() {
    for (auto& w : watchers_) w->stop();
  }

 private:
  kube::HttpClient& client_;
  const ClusterServeOptions& options_;
  InboxSink sink_;
  std::vector<std::unique_ptr<kube::ResourceWatcher>> watchers_;
};

// Leading, the writers and the loop, once the journal is open and the router runs.
ServeEnd run_loop(const ClusterServeOptions& options, kube::HttpClient& client, ServeObserver& observer,
                  const std::function<bool()>& stop_requested, journal::Journal& journal,
                  actors::runtime::DecisionEngine& engine, const std::string& cluster) {
  ClusterInbox inbox(options.wall_now);
  inbox.start_clock(engine, actors::runtime::TickPolicy{options.loop.tick_min_interval_ns});
  // §19: the elector opens it on every renewal and closes it when leading ends; the writers check
  // it immediately before each request leaves, so they stop at once, not through the inbox.
  kube::WriteFence fence;
  kube::ApiWriterOptions writer_options;
  writer_options.queue_namespace = options.queue_namespace;
  writer_options.fence = &fence;
  writer_options.now = options.wall_now;
  writer_options.on_outcome = [&inbox](const actors::Outcome& o) {
    LoopInput in;
    in.kind = LoopInput::Kind::kOutcome;
    in.outcome = o;
    inbox.push(std::move(in));
  };
  kube::LeaderElectionOptions election = options.election;
  election.fence = &fence;
  kube::EventRecorderOptions recorder_options;
  recorder_options.reporting_instance = election.identity;
  recorder_options.now = options.wall_now;
  recorder_options.on_outcome = writer_options.on_outcome;
  std::unique_ptr<kube::EventRecorder> quarantine_recorder =
      record_quarantine(journal, client, election, recorder_options);
  recorder_options.fence = &fence;
  auto writers = [&client, &engine, writer_options, recorder_options]() -> std::unique_ptr<RoundWriter> {
    return std::make_unique<ApiRoundWriter>(engine, std::make_unique<kube::ApiWriter>(client, writer_options),
                                            std::make_unique<kube::EventRecorder>(client, recorder_options));
  };

  Watchers watchers(client, options, inbox);
  watchers.start();

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
  kube::LeaderElector elector(client, election, callbacks);
  elector_of_callbacks = &elector;
  elector.start();
  KQ_LOG_INFO("leader election: Lease {}/{} as {}{}", election.lease_namespace, election.lease_name, identity,
              election.enabled ? "" : " (--leader-elect=false: leading without a Lease)");
  const std::function<void()> stop_beside = options.beside ? options.beside(journal, cluster, fence) : nullptr;

  JournalFailureHooks hooks{[&elector] { elector.release(); }, [&elector] { elector.resume(); },
                            [&watchers] {
                              watchers.stop();
                              KQ_LOG_INFO("watch ingestion paused until the journal can be written");
                            },
                            [&watchers] {
                              watchers.start();
                              KQ_LOG_INFO("watch ingestion resumed: relisting every watched resource");
                            }};
  ServeLoop loop(options.loop, LoopParts{journal, engine, inbox, observer, writers, stop_requested, std::move(hooks)});
  const ServeEnd end = loop.run();
  if (stop_beside) stop_beside();
  watchers.stop();
  elector.stop();
  if (quarantine_recorder) quarantine_recorder->stop();
  loop.snapshot();
  return end;
}

}  // namespace

ServeEnd serve_cluster(const ClusterServeOptions& options, kube::HttpClient& client, ServeObserver& observer,
                       const std::function<bool()>& stop_requested) {
  ServeEnd refused = ServeEnd::kStopped;
  const std::optional<std::string> cluster = cluster_uid(client, stop_requested, refused);
  if (!cluster) return refused;
  StartHooks hooks;
  hooks.on_quarantine = [&observer] { observer.quarantined(); };
  hooks.config_record = options.config_record;
  auto started = start_serve(options.start, *cluster, hooks);
  if (!started.ok()) return ServeEnd::kJournalFailed;
  journal::Journal& journal = *started->journal;
  // The surfaces read the engine: they stop before it does, on every path out.
  struct StopServing {
    ServeObserver& observer;
    ~StopServing() { observer.stop_serving(); }
  } stop_serving{observer};
  if (Status serving = observer.serving(journal, *started->engine); !serving.ok()) {
    KQ_LOG_ERROR("{}", serving.message());
    return ServeEnd::kRefused;
  }
  const ServeEnd end = run_loop(options, client, observer, stop_requested, journal, *started->engine, *cluster);
  KQ_LOG_INFO("serve stopped; journal head seq {}", journal.writer().durable_head().seq);
  return end;
}

}  // namespace koordq::controller
