// `koordq serve` flags (behaviour.md §21): every flag as a typed value with its default, the
// validation rules, and the --simulate implications, applied by read_serve_options.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/byte_size.hpp"
#include "base/go_duration.hpp"
#include "base/result.hpp"
#include "cmd/command_environment.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/default_paths.hpp"
#include "cmd/object_names.hpp"
#include "cmd/parsed_flags.hpp"

namespace koordq::cmd {

enum class RawObjectsMode { redacted, full, off };
enum class CorruptionPolicy { quarantine, fail };
enum class SimulateClock { wall, virtual_time };

std::string_view to_string(RawObjectsMode mode);
std::string_view to_string(CorruptionPolicy policy);
std::string_view to_string(SimulateClock clock);

// Durations are nanoseconds, sizes bytes, decimal factors parts per million.
struct ServeOptions {
  // Kubernetes client
  std::string kubeconfig;  // empty: env KUBECONFIG, else in-cluster
  double qps = 50;
  int64_t burst = 50;
  int64_t watch_timeout_ns = 5 * base::kMinute;  // each WATCH: timeoutSeconds in [this, twice this]

  // Scheduling
  int64_t oversell_rate_ppm = 1'000'000;
  int64_t pod_initial_backoff_seconds = 1;
  int64_t pod_max_backoff_seconds = 20;
  int64_t schedule_suspend_time_ms = 10;
  int64_t actor_threads = 0;  // 0: one per core
  int64_t default_reclaim_protect_time_ns = 0;
  std::string queue_namespace = "koord-queue";
  int64_t queue_items_max = 500;

  // Visibility API
  bool enable_visibility_server = true;
  uint16_t visibility_port = 8082;
  std::string visibility_tls_cert_file;  // empty: self-signed
  std::string visibility_tls_key_file;
  std::string visibility_client_ca_file;                            // empty: from the cluster
  std::vector<std::string> visibility_requestheader_allowed_names;  // with the file; empty: any CN
  // The APIService whose spec.caBundle koordq keeps in step with its serving certificate (§16.1);
  // empty: koordq leaves every APIService alone.
  std::string visibility_apiservice = "v1alpha1.visibility.koord-queue.x-k8s.io";
  int64_t max_connections = 1000;

  // Debug API (on at 127.0.0.1 with --simulate)
  bool enable_api_handler = false;
  std::string api_handler_bind_address = "127.0.0.1";
  uint16_t api_handler_port = 19876;

  // Time travel and the journal stream
  int64_t max_inflight_timetravel = 4;
  int64_t timetravel_cache_mb = 256;
  int64_t stream_max_lag = 100'000;

  // Metrics
  std::string metrics_bind_address = ":10259";

  // Leader election (off with --simulate)
  bool leader_elect = true;
  std::string leader_election_id = "koordq";
  std::string leader_election_namespace = "koord-queue";  // default: POD_NAMESPACE, else koord-queue
  int64_t leader_elect_lease_duration_ns = 15 * base::kSecond;
  int64_t leader_elect_renew_deadline_ns = 10 * base::kSecond;
  int64_t leader_elect_retry_period_ns = 2 * base::kSecond;
  std::optional<NamespacedName> legacy_lease_guard = NamespacedName{"default", "example-lease"};  // nullopt: off

  // Journal
  std::string journal_dir{kDefaultJournalDir};  // kSimulateJournalDir with --simulate
  int64_t journal_max_batch_delay_ns = base::kMillisecond;
  base::Retention journal_retention{base::Retention::Kind::age, 30 * base::kDay};
  int64_t journal_max_size_bytes = int64_t{20} << 30;
  int64_t snapshot_every = 20'000;
  int64_t snapshot_retention = 48;
  RawObjectsMode journal_raw_objects = RawObjectsMode::redacted;
  CorruptionPolicy journal_on_corruption = CorruptionPolicy::quarantine;
  std::string journal_checkpoint_root;   // empty: <journal_dir>/checkpoints
  std::string journal_signing_key_file;  // empty: HEAD and the retention cut are not signed
  // The external witness (behaviour.md §24.5): a ConfigMap in --leader-election-namespace; empty: none.
  std::string journal_witness_configmap = "koordq-journal-witness";
  int64_t journal_witness_period_ns = 60 * base::kSecond;
  int64_t journal_witness_history = 60;
  int64_t tick_min_interval_ns = 10 * base::kMillisecond;

  // Archive (behaviour.md §26)
  std::string archive_url;  // s3://BUCKET[/PREFIX]; empty: no archive
  int64_t archive_segment_records = 10'000;
  int64_t archive_segment_interval_ns = 10 * base::kMinute;
  int64_t archive_lock_days = 0;
  std::string archive_lock_mode = "governance";
  std::string archive_addressing = "auto";

  // Simulator
  bool simulate = false;
  std::string scenario = "default";  // a built-in name or a scenario file
  uint64_t seed = 1;
  int64_t simulate_speed_ppm = 1'000'000;
  SimulateClock simulate_clock = SimulateClock::wall;
  int64_t simulate_duration_ns = 0;  // 0: forever

  // Logging
  int verbosity = 0;

  // Koord-Queue flags that were given and are ignored, canonical names in table order.
  std::vector<std::string> ignored_flags;
};

const CommandSpec& serve_command_spec();

// Validates the flags of `koordq serve` and applies defaults and implications. On failure the
// error is the one-line usage message (exit code 2).
Result<ServeOptions> read_serve_options(const ParsedFlags& flags, const CommandEnvironment& env);

// `--flag=value` pairs of every flag's effective value, in help order: the effective configuration
// logged at start. Nothing here is secret: paths are logged, never file contents.
std::vector<std::pair<std::string, std::string>> effective_serve_flags(const ServeOptions& options);

}  // namespace koordq::cmd
