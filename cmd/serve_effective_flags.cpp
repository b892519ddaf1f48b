#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/decimal_ppm.hpp"
#include "cmd/serve_flags.hpp"

namespace koordq::cmd {
namespace {

std::string quoted_if_empty(const std::string& text) {
  return text.empty() ? "\"\"" : text;
}
std::string boolean(bool value) {
  return value ? "true" : "false";
}
std::string duration(int64_t nanos) {
  return base::format_go_duration(nanos);
}

}  // namespace

std::vector<std::pair<std::string, std::string>> effective_serve_flags(const ServeOptions& o) {
  const std::string guard =
      o.legacy_lease_guard ? o.legacy_lease_guard->namespace_name + "/" + o.legacy_lease_guard->name : "\"\"";
  return {
      {"--kubeconfig", quoted_if_empty(o.kubeconfig)},
      {"--qps", fmt::format("{}", o.qps)},
      {"--burst", std::to_string(o.burst)},
      {"--watch-timeout", duration(o.watch_timeout_ns)},
      {"--oversellrate", base::format_decimal_ppm(o.oversell_rate_ppm)},
      {"--pod-initial-backoff-seconds", std::to_string(o.pod_initial_backoff_seconds)},
      {"--pod-max-backoff-seconds", std::to_string(o.pod_max_backoff_seconds)},
      {"--schedule-suspend-time-ms", std::to_string(o.schedule_suspend_time_ms)},
      {"--actor-threads", std::to_string(o.actor_threads)},
      {"--default-reclaim-protect-time", duration(o.default_reclaim_protect_time_ns)},
      {"--queue-namespace", o.queue_namespace},
      {"--queue-items-max", std::to_string(o.queue_items_max)},
      {"--enable-visibility-server", boolean(o.enable_visibility_server)},
      {"--visibility-port", std::to_string(o.visibility_port)},
      {"--visibility-tls-cert-file", quoted_if_empty(o.visibility_tls_cert_file)},
      {"--visibility-tls-key-file", quoted_if_empty(o.visibility_tls_key_file)},
      {"--visibility-client-ca-file", quoted_if_empty(o.visibility_client_ca_file)},
      {"--visibility-requestheader-allowed-names",
       quoted_if_empty(fmt::format("{}", fmt::join(o.visibility_requestheader_allowed_names, ",")))},
      {"--visibility-apiservice", quoted_if_empty(o.visibility_apiservice)},
      {"--max-connections", std::to_string(o.max_connections)},
      {"--enable-api-handler", boolean(o.enable_api_handler)},
      {"--api-handler-bind-address", o.api_handler_bind_address},
      {"--api-handler-port", std::to_string(o.api_handler_port)},
      {"--max-inflight-timetravel", std::to_string(o.max_inflight_timetravel)},
      {"--timetravel-cache-mb", std::to_string(o.timetravel_cache_mb)},
      {"--stream-max-lag", std::to_string(o.stream_max_lag)},
      {"--metrics-bind-address", o.metrics_bind_address},
      {"--leader-elect", boolean(o.leader_elect)},
      {"--leader-election-id", o.leader_election_id},
      {"--leader-election-namespace", o.leader_election_namespace},
      {"--leader-elect-lease-duration", duration(o.leader_elect_lease_duration_ns)},
      {"--leader-elect-renew-deadline", duration(o.leader_elect_renew_deadline_ns)},
      {"--leader-elect-retry-period", duration(o.leader_elect_retry_period_ns)},
      {"--legacy-lease-guard", guard},
      {"--journal-dir", o.journal_dir},
      {"--journal-max-batch-delay", duration(o.journal_max_batch_delay_ns)},
      {"--journal-retention", base::format_retention(o.journal_retention)},
      {"--journal-max-size", base::format_byte_size(o.journal_max_size_bytes)},
      {"--snapshot-every", std::to_string(o.snapshot_every)},
      {"--snapshot-retention", std::to_string(o.snapshot_retention)},
      {"--journal-raw-objects", std::string(to_string(o.journal_raw_objects))},
      {"--journal-on-corruption", std::string(to_string(o.journal_on_corruption))},
      {"--journal-signing-key-file", o.journal_signing_key_file},
      {"--journal-witness-configmap", quoted_if_empty(o.journal_witness_configmap)},
      {"--journal-witness-period", duration(o.journal_witness_period_ns)},
      {"--journal-witness-history", std::to_string(o.journal_witness_history)},
      {"--tick-min-interval", duration(o.tick_min_interval_ns)},
      {"--journal-checkpoint-root", quoted_if_empty(o.journal_checkpoint_root)},
      {"--archive-url", quoted_if_empty(o.archive_url)},
      {"--archive-segment-records", std::to_string(o.archive_segment_records)},
      {"--archive-segment-interval", duration(o.archive_segment_interval_ns)},
      {"--archive-lock-days", std::to_string(o.archive_lock_days)},
      {"--archive-lock-mode", o.archive_lock_mode},
      {"--archive-addressing", o.archive_addressing},
      {"--simulate", boolean(o.simulate)},
      {"--scenario", o.scenario},
      {"--seed", std::to_string(o.seed)},
      {"--simulate-speed", base::format_decimal_ppm(o.simulate_speed_ppm)},
      {"--simulate-clock", std::string(to_string(o.simulate_clock))},
      {"--simulate-duration", duration(o.simulate_duration_ns)},
      {"--v", std::to_string(o.verbosity)},
  };
}

}  // namespace koordq::cmd
