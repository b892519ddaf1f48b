#include "cmd/serve_surfaces.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <sys/stat.h>

#include "api/auth_configmap.hpp"
#include "api/debug_service.hpp"
#include "api/metrics_service.hpp"
#include "api/visibility_service.hpp"
#include "base/log.hpp"
#include "cmd/build_info.hpp"
#include "cmd/default_paths.hpp"
#include "cmd/serve_config.hpp"
#include "cmd/serve_startup_log.hpp"
#include "console/console_service.hpp"
#include "journal/checkpoint_root.hpp"

namespace koordq::cmd {
namespace {

constexpr const char kCertsDir[] = "simulate-certs";
// The hosts of the certificate a cluster serve generates; the APIService's Service is added (§16.1).
const std::vector<std::string> kGeneratedHosts = {"localhost", "127.0.0.1"};

// §16.1: serve raises its file-descriptor soft limit to the hard limit.
void raise_fd_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) KQ_LOG_WARNING("cannot raise the open-file limit");
  }
}

Result<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("cannot read " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Status write_text(const std::filesystem::path& path, const std::string& text, bool secret) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return make_error("cannot write " + tmp.string());
    out << text;
    if (!out.flush()) return make_error("cannot write " + tmp.string());
  }
  if (secret) ::chmod(tmp.c_str(), 0600);
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) return make_error("cannot write " + path.string() + ": " + ec.message());
  return ok_status();
}

}  // namespace

Result<SimulateCertificates> ensure_simulate_certificates(const std::string& journal_dir) {
  const std::filesystem::path dir = std::filesystem::path(journal_dir) / kCertsDir;
  const auto serving_crt = dir / "serving.crt", serving_key = dir / "serving.key";
  const auto ca_crt = dir / "client-ca.crt", ca_key = dir / "client-ca.key";
  const auto client_crt = dir / "client.crt", client_key = dir / "client.key";
  SimulateCertificates out;
  out.client_ca_file = ca_crt.string();
  std::error_code ec;
  bool complete = true;
  for (const auto& p : {serving_crt, serving_key, ca_crt, ca_key, client_crt, client_key}) {
    complete = complete && std::filesystem::exists(p, ec);
  }
  if (complete) {
    auto crt = read_text(serving_crt);
    auto key = read_text(serving_key);
    if (crt.ok() && key.ok()) {
      out.serving = {*crt, *key};
      return out;
    }
  }
  std::filesystem::create_directories(dir, ec);
  if (ec) return make_error("cannot create " + dir.string() + ": " + ec.message());
  auto serving = api::generate_certificate({"localhost", {"localhost", "127.0.0.1", "::1"}, 365, false, false});
  if (!serving.ok()) return serving.error();
  auto ca = api::generate_certificate({"koordq-simulate-client-ca", {}, 3650, true, false});
  if (!ca.ok()) return ca.error();
  auto client = api::generate_certificate({"koordq-simulate-client", {}, 365, false, true}, &*ca);
  if (!client.ok()) return client.error();
  for (const auto& [path, text, secret] :
       {std::tuple{serving_crt, serving->certificate_pem, false}, std::tuple{serving_key, serving->key_pem, true},
        std::tuple{ca_crt, ca->certificate_pem, false}, std::tuple{ca_key, ca->key_pem, true},
        std::tuple{client_crt, client->certificate_pem, false}, std::tuple{client_key, client->key_pem, true}}) {
    if (Status written = write_text(path, text, secret); !written.ok()) return written.error();
  }
  out.serving = std::move(*serving);
  return out;
}

ServeSurfaces::ServeSurfaces(const ServeOptions& options, std::function<int64_t()> now)
    : options_(options), now_(std::move(now)), metrics_(kVersion, kGitRevision) {}

ServeSurfaces::~ServeSurfaces() {
  stop();
}

Result<std::unique_ptr<ServeSurfaces>> ServeSurfaces::start(const ServeOptions& options, std::function<int64_t()> now) {
  raise_fd_limit();
  std::unique_ptr<ServeSurfaces> surfaces(new ServeSurfaces(options, std::move(now)));
  auto address = api::split_bind_address(options.metrics_bind_address);
  if (!address.ok()) return make_error("--metrics-bind-address: " + address.message());
  ServeSurfaces* self = surfaces.get();
  api::MetricsContext context;
  context.process = &self->metrics_;
  context.live = [self] { return self->live_pages(); };
  context.leader = [self] { return self->leader_.load(); };
  context.journal = [self] {
    api::JournalGauges gauges;
    std::lock_guard lock(self->mu_);
    if (self->journal_ == nullptr) return gauges;
    const auto stats = self->journal_->writer().stats();
    gauges.appended_records = static_cast<double>(stats.appended_records);
    gauges.appended_bytes = static_cast<double>(stats.appended_bytes);
    gauges.last_sequence = static_cast<double>(self->journal_->writer().durable_head().seq);
    if (auto oldest = self->journal_->writer().oldest_pending_arrival()) {
      // Arrivals are record-clock readings, which follow the wall clock within a second.
      const int64_t now =
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
              .count();
      gauges.ingest_lag_seconds = std::max<double>(0, static_cast<double>(now - *oldest) / 1e9);
    }
    return gauges;
  };
  context.not_ready = [self]() -> std::optional<std::string> {
    {
      std::lock_guard lock(self->mu_);
      if (self->journal_ == nullptr) return "the journal is not open yet";
      if (self->journal_failure_) return "journal write failing: " + *self->journal_failure_;
    }
    if (!self->synced_.load()) return "the initial LIST of every watched resource is not applied yet";
    return std::nullopt;
  };
  api::HttpServerOptions server;
  server.name = "metrics";
  server.host = address->first;
  server.port = address->second;
  server.max_connections = static_cast<size_t>(options.max_connections);
  server.aside_threads = 1;  // /metrics; the probes stay on the I/O thread
  server.niceness = api::kServingNiceness;
  auto started = api::HttpServer::start(server, std::make_shared<api::MetricsService>(std::move(context)));
  if (!started.ok()) {
    if (Status kept = surfaces->listen_failed(started.message() + " (--metrics-bind-address)"); !kept.ok()) {
      return kept.error();
    }
    return surfaces;
  }
  surfaces->metrics_server_ = std::move(started).value();
  KQ_LOG_INFO("metrics, /healthz and /readyz listen on {}:{} (--metrics-bind-address)",
              address->first.empty() ? "" : address->first, surfaces->metrics_server_->port());
  return surfaces;
}

// A listener that cannot bind stops `serve`; under --simulate, whose job is the journal, it is
// reported and the simulation goes on without that surface.
Status ServeSurfaces::listen_failed(const std::string& message) {
  if (!options_.simulate) return make_error(message);
  KQ_LOG_ERROR("{}; the simulation goes on without it", message);
  return ok_status();
}

uint16_t ServeSurfaces::metrics_port() const {
  return metrics_server_ ? metrics_server_->port() : 0;
}

actors::runtime::LatencyObserver ServeSurfaces::latency_observer() {
  return [this](const std::string&, double seconds) { metrics_.observe_algorithm_latency(seconds); };
}

// Every surface reads what the read side published last (read_side.hpp), never the router: an
// answer does not wait for a round, and a round does not wait for an answer. The pages serve
// /metrics, the visibility API and the debug API's queue, quota and namespace pages.
actors::runtime::PublishedPages ServeSurfaces::live_pages() {
  std::lock_guard lock(mu_);
  if (engine_ == nullptr) return nullptr;
  return engine_->published();
}

// The answers that need the whole state (the console's latest revision, through time travel)
// read the read side's replica.
void ServeSurfaces::read_live(const api::StateRead& read) {
  actors::runtime::DecisionEngine* engine = nullptr;
  {
    std::lock_guard lock(mu_);
    engine = engine_;
  }
  if (engine != nullptr) engine->read_published_state(read);
}

std::optional<uint64_t> ServeSurfaces::live_revision() {
  std::lock_guard lock(mu_);
  if (engine_ == nullptr) return std::nullopt;
  return engine_->published()->revision;
}

Status ServeSurfaces::attach(journal::Journal& journal, actors::runtime::DecisionEngine& engine, bool leader) {
  if (!engine.published()) return make_error("the decision engine keeps no read side (EngineOptions::publish_reads)");
  {
    std::lock_guard lock(mu_);
    journal_ = &journal;
    engine_ = &engine;
  }
  leader_.store(leader);
  journal.writer().set_sync_observer([this](size_t records, int64_t nanos) { metrics_.observe_sync(records, nanos); });
  api::TimeTravelOptions tt;
  tt.max_inflight = static_cast<size_t>(options_.max_inflight_timetravel);
  tt.cache_bytes = static_cast<size_t>(options_.timetravel_cache_mb) << 20;
  tt.config = decision_config_of(options_);
  time_travel_ = std::make_unique<api::TimeTravel>(
      tt, journal.reader(), [this](const api::StateRead& read) { read_live(read); },
      [this](api::TimeTravelResult result, std::optional<double> seconds) {
        metrics_.observe_time_travel(result, seconds);
      },
      [this] { return live_pages(); });
  if (!options_.enable_api_handler) return ok_status();
  api::DebugContext context;
  context.time_travel = time_travel_.get();
  context.now = now_;
  context.journal_uuid = journal.uuid();
  context.unavailable = [this]() -> std::optional<std::string> {
    if (!leader_.load()) return "not the leader";
    if (!synced_.load()) return "initial sync not complete";
    return std::nullopt;
  };
  context.stream.reader = &journal.reader();
  context.stream.durable_seq = [&journal] { return journal.writer().durable_head().seq; };
  context.stream.wait_durable = [&journal](uint64_t seq, int64_t timeout) {
    return journal.writer().wait_durable(seq, timeout);
  };
  context.stream.max_lag = static_cast<uint64_t>(options_.stream_max_lag);
  context.stream.queue_namespace = options_.queue_namespace;
  const std::filesystem::path checkpoint_root = options_.journal_checkpoint_root.empty()
                                                    ? std::filesystem::path(options_.journal_dir) / "checkpoints"
                                                    : std::filesystem::path(options_.journal_checkpoint_root);
  context.checkpoint = [&journal, checkpoint_root](const std::string& dir) -> Result<uint64_t> {
    auto target = journal::checkpoint_dir_under(checkpoint_root, dir);
    if (!target.ok()) return target.error();
    return journal.checkpoint(*target);
  };
  api::HttpServerOptions server;
  server.name = "debug";
  server.niceness = api::kServingNiceness;
  server.host = options_.api_handler_bind_address;
  server.port = options_.api_handler_port;
  server.max_connections = static_cast<size_t>(options_.max_connections);
  server.threads = 2;
  auto debug = std::make_shared<api::DebugService>(std::move(context));
  auto started =
      api::HttpServer::start(server, std::make_shared<console::ConsoleService>(console_context(journal), debug));
  if (!started.ok()) return listen_failed(started.message() + " (--api-handler-bind-address, --api-handler-port)");
  debug_server_ = std::move(started).value();
  // `koordq journal checkpoint` finds the listener that owns this journal here (§24.4).
  const std::string host = options_.api_handler_bind_address.empty() || options_.api_handler_bind_address == "0.0.0.0"
                               ? "127.0.0.1"
                               : options_.api_handler_bind_address;
  if (Status written = write_text(debug_listener_file(options_.journal_dir),
                                  host + ":" + std::to_string(debug_server_->port()) + "\n", false);
      !written.ok()) {
    KQ_LOG_WARNING("{}; koordq journal checkpoint cannot reach this serve", written.message());
  }
  KQ_LOG_INFO("debug API listens on http://{}:{} (--api-handler-bind-address, --api-handler-port)",
              options_.api_handler_bind_address, debug_server_->port());
  KQ_LOG_INFO("console at http://{}:{}/console/ (kubectl port-forward to reach it in a cluster)", host,
              debug_server_->port());
  return ok_status();
}

// The console reads the durable records only, and states through the debug API's time travel.
console::ConsoleContext ServeSurfaces::console_context(journal::Journal& journal) {
  timeline_ = std::make_unique<console::TimelineFollower>(
      journal.reader(), [&journal] { return journal.writer().durable_head().seq; }, nullptr);
  console::ConsoleContext context;
  context.reader = &journal.reader();
  context.head = [&journal] { return journal.writer().durable_head().seq; };
  context.state_at = [this](uint64_t revision, const api::StateRead& read) {
    api::PointInTime at;
    at.kind = api::PointInTime::Kind::kRevision;
    at.revision = revision;
    at.text = std::to_string(revision);
    return time_travel_->read(at, read);
  };
  context.timeline = &timeline_->index();
  context.journal_uuid = journal.uuid();
  context.source = "serve";
  context.live = true;
  return context;
}

Status ServeSurfaces::initial_sync_done() {
  synced_.store(true);
  if (leader_.load() && options_.enable_visibility_server) {
    if (Status started = start_visibility(); !started.ok()) return started;
  }
  if (options_.simulate) {
    // Where to look, with the ports actually bound (a port flag of 0 picks a free one).
    ServeOptions bound = options_;
    const std::string& address = options_.metrics_bind_address;
    if (metrics_server_) {
      bound.metrics_bind_address = address.substr(0, address.rfind(':') + 1) + std::to_string(metrics_server_->port());
    }
    if (debug_server_) bound.api_handler_port = debug_server_->port();
    if (visibility_server_) bound.visibility_port = visibility_server_->port();
    for (const std::string& line : simulate_curl_lines(bound)) KQ_LOG_INFO("{}", line);
  }
  return ok_status();
}

Status ServeSurfaces::became_leader() {
  if (leader_.exchange(true)) return ok_status();
  if (synced_.load() && options_.enable_visibility_server) return start_visibility();
  return ok_status();
}

void ServeSurfaces::stopped_leading() {
  if (!leader_.exchange(false)) return;
  {
    std::lock_guard lock(stop_mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (tls_watcher_.joinable()) tls_watcher_.join();
  if (visibility_server_) visibility_server_->stop();
  visibility_server_.reset();
  std::lock_guard lock(stop_mu_);
  stopping_ = false;
}

void ServeSurfaces::set_journal_failure(std::optional<std::string> error) {
  std::lock_guard lock(mu_);
  journal_failure_ = std::move(error);
}

Status ServeSurfaces::start_visibility() {
  std::optional<api::CertificatePair> generated;
  std::string client_ca = options_.visibility_client_ca_file;
  bool simulate_client_ca = false;
  if (options_.simulate) {
    auto certs = ensure_simulate_certificates(options_.journal_dir);
    if (!certs.ok()) return make_error("visibility API certificates: " + certs.message());
    if (options_.visibility_tls_cert_file.empty()) generated = certs->serving;
    if (client_ca.empty()) {
      client_ca = certs->client_ca_file;
      simulate_client_ca = true;
    }
  } else if (options_.visibility_tls_cert_file.empty()) {
    auto pair = api::generate_certificate({"localhost", kGeneratedHosts, 365, false, false});
    if (!pair.ok()) return make_error("visibility API self-signed certificate: " + pair.message());
    generated = std::move(*pair);
  }
  ca_bundle_keeper_.reset();
  if (apiservice_client_ != nullptr && !options_.visibility_apiservice.empty()) {
    ca_bundle_keeper_ = std::make_unique<ApiServiceCaBundleKeeper>(
        *apiservice_client_, options_.visibility_apiservice,
        options_.visibility_tls_cert_file.empty() ? kGeneratedHosts : std::vector<std::string>{});
  }
  auto tls = api::TlsMaterial::load({options_.visibility_tls_cert_file, options_.visibility_tls_key_file, client_ca},
                                    std::move(generated));
  if (!tls.ok()) return tls.error();
  if (!client_ca.empty()) {
    // §16.1: the file's CA with the allowed names of --visibility-requestheader-allowed-names; the
    // simulation's own client CA authenticates its client certificate by its CN.
    api::ClientAuthConfig file_auth = *(*tls)->client_auth();
    file_auth.allowed_names = options_.visibility_requestheader_allowed_names;
    file_auth.user_from_certificate = simulate_client_ca;
    if (Status set = (*tls)->set_client_auth(std::move(file_auth)); !set.ok()) return set.error();
  }
  {
    std::lock_guard lock(auth_mu_);
    tls_ = std::move(tls).value();
    if (client_ca.empty() && cluster_auth_) apply_cluster_client_auth();
  }
  if (client_ca.empty() && !cluster_auth_) {
    KQ_LOG_ERROR("visibility API: no client CA (--visibility-client-ca-file); every request under /apis is refused");
  }
  api::VisibilityContext context;
  context.time_travel = time_travel_.get();
  context.tls = tls_;
  context.now = now_;
  context.live_revision = [this] { return live_revision(); };
  if (review_) context.authorizer = std::make_shared<api::VisibilityAuthorizer>(review_);
  {
    std::lock_guard lock(mu_);
    context.journal_uuid = journal_ != nullptr ? journal_->uuid() : std::string();
  }
  api::HttpServerOptions server;
  server.name = "visibility";
  server.niceness = api::kServingNiceness;
  server.host = "";
  server.port = options_.visibility_port;
  server.max_connections = static_cast<size_t>(options_.max_connections);
  server.threads = 2;
  std::shared_ptr<api::TlsMaterial> material = tls_;
  server.tls = [material] { return material->context(); };
  auto started = api::HttpServer::start(server, std::make_shared<api::VisibilityService>(std::move(context)));
  if (!started.ok()) return listen_failed(started.message() + " (--visibility-port)");
  visibility_server_ = std::move(started).value();
  tls_watcher_ = std::thread([this] { watch_tls_files(); });
  KQ_LOG_INFO("visibility API listens on https://:{} (--visibility-port)", visibility_server_->port());
  return ok_status();
}

// §16.1: certificate, key and client CA files are re-read when they change, checked every 10 s,
// and the APIService's caBundle follows the serving certificate (checked at once, then as often).
void ServeSurfaces::watch_tls_files() {
  if (ca_bundle_keeper_) ca_bundle_keeper_->keep(*tls_);
  std::unique_lock lock(stop_mu_);
  while (!stop_cv_.wait_for(lock, std::chrono::seconds(10), [this] { return stopping_; })) {
    tls_->reload_if_changed();
    if (ca_bundle_keeper_) {
      lock.unlock();
      ca_bundle_keeper_->keep(*tls_);
      lock.lock();
    }
  }
}

void ServeSurfaces::cluster_client_auth_changed(std::string configmap_json) {
  std::lock_guard lock(auth_mu_);
  auth_configmap_ = std::move(configmap_json);
  apply_cluster_client_auth();
}

// §16.1: the CA, header names and allowed names from the cluster; what fails to load is logged
// and the previous configuration stays.
void ServeSurfaces::apply_cluster_client_auth() {
  if (!tls_ || !auth_configmap_) return;
  auto config = api::client_auth_from_configmap(*auth_configmap_);
  if (!config.ok()) {
    KQ_LOG_ERROR("visibility API client authentication: ConfigMap {}: {}", api::kAuthConfigMapPath, config.message());
    return;
  }
  if (Status set = tls_->set_client_auth(std::move(*config)); !set.ok()) {
    KQ_LOG_ERROR("visibility API client authentication: {}", set.message());
    return;
  }
  KQ_V(1)("visibility API client authentication from ConfigMap {}", api::kAuthConfigMapPath);
}

void ServeSurfaces::stop() {
  {
    std::lock_guard lock(stop_mu_);
    stopping_ = true;
  }
  stop_cv_.notify_all();
  if (tls_watcher_.joinable()) tls_watcher_.join();
  if (visibility_server_) visibility_server_->stop();
  if (debug_server_) {
    debug_server_->stop();
    std::error_code ignored;
    std::filesystem::remove(debug_listener_file(options_.journal_dir), ignored);
  }
  timeline_.reset();
  if (metrics_server_) metrics_server_->stop();
  std::lock_guard lock(mu_);
  engine_ = nullptr;
}

}  // namespace koordq::cmd
