#include "cmd/cluster_runner.hpp"

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "api/auth_configmap.hpp"
#include "api/subject_access_review.hpp"
#include "base/log.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_witness_writer.hpp"
#include "cmd/serve_config.hpp"
#include "cmd/serve_end_code.hpp"
#include "cmd/serve_startup_log.hpp"
#include "cmd/serve_surfaces.hpp"
#include "cmd/stop_signal.hpp"
#include "cmd/surfaces_observer.hpp"
#include "cmd/wall_clock.hpp"
#include "controller/cluster_serve.hpp"
#include "kube/client/client_config.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/object_watch.hpp"
#include "kube/leader/leader_elector.hpp"

namespace koordq::cmd {
namespace {

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

// §16.1: without --visibility-client-ca-file the visibility API's client authentication follows the
// cluster's ConfigMap, watched for as long as koordq serves.
class ClusterSurfacesObserver : public SurfacesObserver {
 public:
  ClusterSurfacesObserver(const ServeOptions& options, ServeSurfaces& surfaces, kube::HttpClient& client,
                          std::shared_ptr<ServeArchive> archive)
      : SurfacesObserver(surfaces, false, std::move(archive)), options_(options), client_(client) {}

  Status serving(journal::Journal& journal, actors::runtime::DecisionEngine& engine) override {
    if (options_.enable_visibility_server && options_.visibility_client_ca_file.empty()) watch_client_auth();
    return SurfacesObserver::serving(journal, engine);
  }
  void stop_serving() override {
    auth_watch_.reset();
    SurfacesObserver::stop_serving();
  }

 private:
  void watch_client_auth() {
    surfaces_.use_cluster_client_auth();
    kube::ObjectWatchOptions watch;
    watch.collection = std::string(api::kAuthConfigMapCollection);
    watch.name = std::string(api::kAuthConfigMapName);
    watch.on_object = [this](std::string_view json) { surfaces_.cluster_client_auth_changed(std::string(json)); };
    // Recovered from by the watch itself, as the resource watchers' problems are: warnings. An
    // unusable CA or no CA at all is the error (§16.1), logged where it is applied or missing.
    watch.on_problem = [](const std::string& message) {
      KQ_LOG_WARNING("visibility API client authentication: {}", message);
    };
    auth_watch_ = std::make_unique<kube::ObjectWatch>(client_, std::move(watch));
    if (Status started = auth_watch_->start(); !started.ok()) {
      KQ_LOG_ERROR("visibility API client authentication: {}; retrying in the background", started.message());
    }
  }

  const ServeOptions& options_;
  kube::HttpClient& client_;
  std::unique_ptr<kube::ObjectWatch> auth_watch_;
};

controller::ClusterServeOptions cluster_serve_options_of(const ServeOptions& options, ServeSurfaces& surfaces) {
  controller::ClusterServeOptions serve;
  serve.start =
      start_options_of(options, {static_cast<size_t>(options.actor_threads), surfaces.latency_observer(), true});
  serve.loop = loop_options_of(options);
  serve.queue_namespace = options.queue_namespace;
  serve.election = election_options_of(options);
  serve.watch.raw_mode = raw_object_mode_of(options);
  serve.watch.watch_timeout_min = std::chrono::seconds(options.watch_timeout_ns / base::kSecond);
  serve.watch.watch_timeout_max = 2 * serve.watch.watch_timeout_min;
  serve.wall_now = wall_now;
  serve.config_record = [&options](const journal::Journal& j) {
    return make_config_body(options, j.uuid(), j.open_report().quarantined);
  };
  return serve;
}

// §24.5: the leader's journal head, witnessed in a ConfigMap on a thread of its own, fenced as
// every leader write; on the visibility API's client, so it never waits behind the writers' --qps.
std::function<std::function<void()>(journal::Journal&, const std::string&, kube::WriteFence&)> witness_of(
    const ServeOptions& options, kube::HttpClient& client) {
  if (options.journal_witness_configmap.empty()) return nullptr;
  return [&options, &client](journal::Journal& j, const std::string& cluster,
                             kube::WriteFence& fence) -> std::function<void()> {
    WitnessWriterOptions w;
    w.namespace_name = options.leader_election_namespace;
    w.name = options.journal_witness_configmap;
    w.period = std::chrono::nanoseconds(options.journal_witness_period_ns);
    w.history = static_cast<size_t>(options.journal_witness_history);
    w.journal_uuid = j.uuid();
    w.cluster = cluster;
    w.key = j.signing_key();
    w.fence = &fence;
    w.head = [&j] { return j.writer().durable_head(); };
    w.reader = &j.reader();
    w.now = wall_now;
    auto witness = std::make_shared<JournalWitnessWriter>(client, std::move(w));
    witness->start();
    return [witness] { witness->stop(); };
  };
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
  auto archive = ServeArchive::configure(options);
  if (!archive.ok()) {
    KQ_LOG_ERROR("{}", archive.message());
    return kExitUsage;
  }
  ClusterSurfacesObserver observer(options, **surfaces, **client, *archive);
  controller::ClusterServeOptions serve = cluster_serve_options_of(options, **surfaces);
  if (*archive) serve.loop.upkeep.archived_seq = [a = *archive] { return a->archived_seq(); };
  serve.beside = witness_of(options, **review_client);
  return exit_code_of(controller::serve_cluster(serve, **client, observer, stop_requested));
}

}  // namespace koordq::cmd
