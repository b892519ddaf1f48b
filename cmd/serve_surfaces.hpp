// The serving surfaces of `koordq serve` (behaviour.md §15–§18): the metrics listener from
// process start, the debug API once the journal is open, the visibility API on the leader after
// the initial sync; all of them projections of the live decision state and of the journal.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "actors/runtime/decision_engine.hpp"
#include "api/http_server.hpp"
#include "api/process_metrics.hpp"
#include "api/time_travel.hpp"
#include "api/tls_material.hpp"
#include "api/visibility_authorizer.hpp"
#include "base/result.hpp"
#include "cmd/apiservice_ca_bundle_keeper.hpp"
#include "cmd/serve_flags.hpp"
#include "console/console_context.hpp"
#include "console/timeline_follower.hpp"
#include "journal/journal.hpp"

namespace koordq::cmd {

class ServeSurfaces {
 public:
  // Starts the metrics listener. `now` is the clock asOf may not pass (wall or virtual).
  static Result<std::unique_ptr<ServeSurfaces>> start(const ServeOptions& options, std::function<int64_t()> now);
  ~ServeSurfaces();

  api::ProcessMetrics& metrics() { return metrics_; }
  // The clock the surfaces answer by (simulated under --simulate-clock virtual).
  const std::function<int64_t()>& now() const { return now_; }
  // The port the metrics listener bound (0: none).
  uint16_t metrics_port() const;
  // What the algorithm-latency histogram observes (the decision engine's latency hook).
  actors::runtime::LatencyObserver latency_observer();

  // Cluster serve, --visibility-client-ca-file empty (§16.1): the visibility API's client
  // authentication comes from the ConfigMap kube-system/extension-apiserver-authentication, whose
  // versions the caller's watch passes to cluster_client_auth_changed (its JSON).
  void use_cluster_client_auth() { cluster_auth_ = true; }
  void cluster_client_auth_changed(std::string configmap_json);
  // Cluster serve (§16.8): every visibility request is authorized by a SubjectAccessReview sent
  // through `review`. Without it (--simulate) every authenticated request is allowed.
  void use_authorizer(api::VisibilityAuthorizer::Review review) { review_ = std::move(review); }
  // Cluster serve (§16.1): the leader keeps the caBundle of --visibility-apiservice in step with its
  // serving certificate through `client` (which outlives the surfaces' stop()).
  void use_apiservice_client(kube::HttpClient& client) { apiservice_client_ = &client; }

  // The journal is open and the live state is `engine`'s: the metrics gain the journal and the
  // state, and the debug API starts (when enabled).
  Status attach(journal::Journal& journal, actors::runtime::DecisionEngine& engine, bool leader);
  // The initial LIST of every watched resource is applied: /readyz turns ready, the debug API's
  // /apis/v1 endpoints answer, and the visibility API starts on the leader.
  Status initial_sync_done();
  // This replica leads from now on (its `role` record is applied): the queueing families, the
  // debug API's /apis/v1 endpoints and, once synced, the visibility API.
  Status became_leader();
  // Leading ended (journal write failure, §19): koordq_leader 0, the queueing families and the
  // leader-only endpoints off, the visibility API stopped.
  void stopped_leading();
  // §19: while appends fail, /readyz answers 503 `journal write failing: <error>`; nullopt: ok.
  void set_journal_failure(std::optional<std::string> error);
  // Stops every listener (answers being written finish first); before the journal closes.
  void stop();

 private:
  explicit ServeSurfaces(const ServeOptions& options, std::function<int64_t()> now);
  actors::runtime::PublishedPages live_pages();
  void read_live(const api::StateRead& read);
  std::optional<uint64_t> live_revision();
  console::ConsoleContext console_context(journal::Journal& journal);
  Status start_visibility();
  Status listen_failed(const std::string& message);
  void watch_tls_files();
  // Applies the last ConfigMap to the visibility API's TLS material, if both are there; under auth_mu_.
  void apply_cluster_client_auth();

  const ServeOptions& options_;
  std::function<int64_t()> now_;
  api::ProcessMetrics metrics_;
  std::mutex mu_;
  journal::Journal* journal_ = nullptr;
  actors::runtime::DecisionEngine* engine_ = nullptr;
  std::atomic<bool> leader_{false};
  std::atomic<bool> synced_{false};
  std::optional<std::string> journal_failure_;  // under mu_
  std::unique_ptr<api::TimeTravel> time_travel_;
  std::shared_ptr<api::TlsMaterial> tls_;  // set under auth_mu_
  std::unique_ptr<api::HttpServer> metrics_server_;
  std::unique_ptr<api::HttpServer> debug_server_;
  std::unique_ptr<console::TimelineFollower> timeline_;  // the console's, under serve
  std::unique_ptr<api::HttpServer> visibility_server_;
  std::atomic<bool> cluster_auth_{false};
  api::VisibilityAuthorizer::Review review_;
  kube::HttpClient* apiservice_client_ = nullptr;
  std::unique_ptr<ApiServiceCaBundleKeeper> ca_bundle_keeper_;  // used by the tls_watcher_ thread only
  std::mutex auth_mu_;
  std::optional<std::string> auth_configmap_;  // the last ConfigMap seen, under auth_mu_
  std::thread tls_watcher_;
  std::mutex stop_mu_;
  std::condition_variable stop_cv_;
  bool stopping_ = false;
};

// --simulate: the visibility API's serving pair, client CA and client certificate under
// <journal-dir>/simulate-certs/ (kept across restarts so the printed curl lines stay valid).
struct SimulateCertificates {
  api::CertificatePair serving;
  std::string client_ca_file;
};
Result<SimulateCertificates> ensure_simulate_certificates(const std::string& journal_dir);

}  // namespace koordq::cmd
