#include "cmd/serve_flags.hpp"

#include "archive/archive_location.hpp"
#include "base/go_duration.hpp"
#include "base/object_name.hpp"
#include "cmd/command_names.hpp"
#include "cmd/flag_reader.hpp"
#include "cmd/usage_error.hpp"
#include "journal/signing_key.hpp"

namespace koordq::cmd {
namespace {

// Accepted for compatibility with Koord-Queue's command lines; each logs a warning when given.
const std::vector<FlagSpec> kIgnoredFlags = {
    {"--config", "", "FILE", "", "Koord-Queue plugin configuration file"},
    {"--strictDequeueMode", "", "", "", "Koord-Queue strict dequeue mode"},
    {"--queue-list", "", "LIST", "", "Koord-Queue queue list"},
    {"--default-queue-policy", "", "POLICY", "", "Koord-Queue default queue policy"},
    {"--defaultPreemptible", "", "", "", "Koord-Queue default preemptibility"},
    {"--enableParentLimit", "", "", "", "Koord-Queue parent quota limit"},
    {"--feature-gates", "", "GATES", "", "Koord-Queue feature gates"},
    {"--admissionCheckControllerWorker", "", "N", "", "Koord-Queue admission check workers"},
};

const std::vector<std::string_view> kSimulatorOnlyFlags = {"--scenario", "--seed", "--simulate-speed",
                                                           "--simulate-clock", "--simulate-duration"};

// `[host]:port`, the host possibly empty or a bracketed IPv6 address.
bool is_bind_address(std::string_view address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string_view::npos) return false;
  const std::string_view host = address.substr(0, colon);
  if (host.find_first_of(" \t/") != std::string_view::npos) return false;
  if (host.find(':') != std::string_view::npos && !(host.starts_with('[') && host.ends_with(']'))) return false;
  const std::optional<int64_t> port = parse_integer(address.substr(colon + 1));
  return port && *port >= 0 && *port <= 65535 && !address.substr(colon + 1).starts_with('+');
}

void read_legacy_lease_guard(FlagReader& reader, std::optional<NamespacedName>& out) {
  const std::optional<std::string> value = reader.flags().value("--legacy-lease-guard");
  if (!value || !reader.ok()) return;
  if (value->empty()) {
    out.reset();
    return;
  }
  const Result<NamespacedName> guard = parse_namespaced_name(*value);
  if (!guard.ok()) return reader.reject("--legacy-lease-guard", *value, "must be <namespace>/<name>, or \"\" for none");
  out = *guard;
}

void read_client_flags(FlagReader& reader, ServeOptions& o) {
  reader.text("--kubeconfig", o.kubeconfig);
  int64_t qps_ppm = 0;
  reader.positive_decimal_ppm("--qps", qps_ppm);
  if (qps_ppm > 0) o.qps = static_cast<double>(qps_ppm) / 1e6;
  reader.integer("--burst", o.burst, 1);
  reader.duration("--watch-timeout", o.watch_timeout_ns, DurationBound::positive);
  if (reader.ok() && o.watch_timeout_ns < base::kSecond) {
    reader.reject("--watch-timeout", *reader.flags().value("--watch-timeout"), "must be a Go duration >= 1s");
  }
}

void read_scheduling_flags(FlagReader& reader, ServeOptions& o) {
  reader.positive_decimal_ppm("--oversellrate", o.oversell_rate_ppm);
  reader.integer("--pod-initial-backoff-seconds", o.pod_initial_backoff_seconds, 1);
  const std::optional<std::string> max_backoff = reader.flags().value("--pod-max-backoff-seconds");
  if (max_backoff && reader.ok()) {
    const std::optional<int64_t> parsed = parse_integer(*max_backoff);
    if (!parsed || *parsed < o.pod_initial_backoff_seconds) {
      reader.reject("--pod-max-backoff-seconds", *max_backoff,
                    "must be an integer >= --pod-initial-backoff-seconds (" +
                        std::to_string(o.pod_initial_backoff_seconds) + ")");
    } else {
      o.pod_max_backoff_seconds = *parsed;
    }
  } else if (reader.ok() && o.pod_max_backoff_seconds < o.pod_initial_backoff_seconds) {
    reader.reject("--pod-initial-backoff-seconds", *reader.flags().value("--pod-initial-backoff-seconds"),
                  "must be an integer between 1 and --pod-max-backoff-seconds (" +
                      std::to_string(o.pod_max_backoff_seconds) + ")");
  }
  reader.integer("--schedule-suspend-time-ms", o.schedule_suspend_time_ms, 0);
  reader.duration("--default-reclaim-protect-time", o.default_reclaim_protect_time_ns, DurationBound::non_negative);
  reader.non_empty_text("--queue-namespace", o.queue_namespace);
  reader.integer("--queue-items-max", o.queue_items_max, 0);
  reader.integer("--actor-threads", o.actor_threads, 0);
}

void read_server_flags(FlagReader& reader, ServeOptions& o) {
  reader.boolean("--enable-visibility-server", o.enable_visibility_server);
  reader.port("--visibility-port", o.visibility_port);
  reader.text("--visibility-tls-cert-file", o.visibility_tls_cert_file);
  reader.text("--visibility-tls-key-file", o.visibility_tls_key_file);
  if (reader.ok() && o.visibility_tls_cert_file.empty() != o.visibility_tls_key_file.empty()) {
    reader.fail(usage_error(kServeCommand,
                            "--visibility-tls-cert-file and --visibility-tls-key-file go together: "
                            "give both, or neither for a self-signed certificate"));
  }
  reader.text("--visibility-client-ca-file", o.visibility_client_ca_file);
  std::string allowed_names;
  reader.text("--visibility-requestheader-allowed-names", allowed_names);
  for (size_t start = 0; !allowed_names.empty() && start <= allowed_names.size();) {
    const size_t comma = allowed_names.find(',', start);
    const std::string name =
        allowed_names.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!name.empty()) o.visibility_requestheader_allowed_names.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  reader.text("--visibility-apiservice", o.visibility_apiservice);
  reader.integer("--max-connections", o.max_connections, 1);
  reader.boolean("--enable-api-handler", o.enable_api_handler);
  reader.non_empty_text("--api-handler-bind-address", o.api_handler_bind_address);
  reader.port("--api-handler-port", o.api_handler_port);
  reader.integer("--max-inflight-timetravel", o.max_inflight_timetravel, 1);
  reader.integer("--timetravel-cache-mb", o.timetravel_cache_mb, 0);
  reader.integer("--stream-max-lag", o.stream_max_lag, 1);
  const std::optional<std::string> metrics = reader.flags().value("--metrics-bind-address");
  if (metrics && reader.ok()) {
    if (!is_bind_address(*metrics)) {
      reader.reject(
          "--metrics-bind-address", *metrics,
          "must be [host]:port with a port between 0 and 65535 (0: any free port), such as :10259 or 0.0.0.0:10259");
    } else {
      o.metrics_bind_address = *metrics;
    }
  }
}

// shorter < longer; the flag that was given is the one to fix (the shorter one when both were).
void require_shorter(FlagReader& reader, std::string_view shorter_flag, int64_t shorter, std::string_view longer_flag,
                     int64_t longer) {
  if (!reader.ok() || shorter < longer) return;
  if (reader.flags().given(shorter_flag) || !reader.flags().given(longer_flag)) {
    return reader.reject(
        shorter_flag, reader.flags().value(shorter_flag).value_or(base::format_go_duration(shorter)),
        "must be a Go duration less than " + std::string(longer_flag) + " (" + base::format_go_duration(longer) + ")");
  }
  reader.reject(longer_flag, *reader.flags().value(longer_flag),
                "must be a Go duration greater than " + std::string(shorter_flag) + " (" +
                    base::format_go_duration(shorter) + ")");
}

void read_leader_election_flags(FlagReader& reader, ServeOptions& o) {
  reader.boolean("--leader-elect", o.leader_elect);
  reader.non_empty_text("--leader-election-id", o.leader_election_id);
  reader.non_empty_text("--leader-election-namespace", o.leader_election_namespace);
  reader.duration("--leader-elect-lease-duration", o.leader_elect_lease_duration_ns, DurationBound::positive);
  reader.duration("--leader-elect-renew-deadline", o.leader_elect_renew_deadline_ns, DurationBound::positive);
  reader.duration("--leader-elect-retry-period", o.leader_elect_retry_period_ns, DurationBound::positive);
  require_shorter(reader, "--leader-elect-renew-deadline", o.leader_elect_renew_deadline_ns,
                  "--leader-elect-lease-duration", o.leader_elect_lease_duration_ns);
  require_shorter(reader, "--leader-elect-retry-period", o.leader_elect_retry_period_ns,
                  "--leader-elect-renew-deadline", o.leader_elect_renew_deadline_ns);
  // A leader stops writing once renewals failed until the renew deadline, and notices that at most
  // a retry period later: both must pass before its lease can go to another replica (§19).
  const int64_t slack = o.leader_elect_lease_duration_ns - o.leader_elect_renew_deadline_ns;
  if (reader.ok() && o.leader_elect_retry_period_ns >= slack) {
    const bool lease_given =
        reader.flags().given("--leader-elect-lease-duration") && !reader.flags().given("--leader-elect-retry-period");
    if (lease_given) {
      reader.reject(
          "--leader-elect-lease-duration", *reader.flags().value("--leader-elect-lease-duration"),
          "must be a Go duration greater than --leader-elect-renew-deadline plus --leader-elect-retry-period (" +
              base::format_go_duration(o.leader_elect_renew_deadline_ns + o.leader_elect_retry_period_ns) + ")");
    } else {
      reader.reject(
          "--leader-elect-retry-period",
          reader.flags()
              .value("--leader-elect-retry-period")
              .value_or(base::format_go_duration(o.leader_elect_retry_period_ns)),
          "must be a Go duration less than --leader-elect-lease-duration minus --leader-elect-renew-deadline (" +
              base::format_go_duration(slack) + ")");
    }
  }
  read_legacy_lease_guard(reader, o.legacy_lease_guard);
}

void read_journal_flags(FlagReader& reader, ServeOptions& o) {
  reader.non_empty_text("--journal-dir", o.journal_dir);
  reader.duration("--journal-max-batch-delay", o.journal_max_batch_delay_ns, DurationBound::non_negative);
  reader.positive_retention("--journal-retention", o.journal_retention);
  reader.positive_byte_size("--journal-max-size", o.journal_max_size_bytes);
  reader.integer("--snapshot-every", o.snapshot_every, 1);
  reader.integer("--snapshot-retention", o.snapshot_retention, 1);
  reader.choice("--journal-raw-objects", o.journal_raw_objects,
                {{"redacted", RawObjectsMode::redacted}, {"full", RawObjectsMode::full}, {"off", RawObjectsMode::off}});
  reader.choice("--journal-on-corruption", o.journal_on_corruption,
                {{"quarantine", CorruptionPolicy::quarantine}, {"fail", CorruptionPolicy::fail}});
  reader.text("--journal-signing-key-file", o.journal_signing_key_file);
  if (reader.ok() && !o.journal_signing_key_file.empty()) {
    // A key that cannot be used fails here, with the flag, not later as a journal that cannot open.
    if (auto key = journal::SigningKey::load(o.journal_signing_key_file); !key.ok()) {
      reader.reject("--journal-signing-key-file", o.journal_signing_key_file, key.message());
    }
  }
  reader.text("--journal-witness-configmap", o.journal_witness_configmap);
  if (reader.ok() && !o.journal_witness_configmap.empty() && !base::is_object_name(o.journal_witness_configmap)) {
    reader.reject("--journal-witness-configmap", o.journal_witness_configmap,
                  "must be a ConfigMap name (lowercase letters, digits, '-' and '.'), or \"\" for no witness");
  }
  reader.duration("--journal-witness-period", o.journal_witness_period_ns, DurationBound::positive);
  if (reader.ok() && o.journal_witness_period_ns < base::kSecond) {
    reader.reject("--journal-witness-period", base::format_go_duration(o.journal_witness_period_ns),
                  "must be a Go duration of at least 1s");
  }
  reader.integer("--journal-witness-history", o.journal_witness_history, 1, 1000);
  reader.duration("--tick-min-interval", o.tick_min_interval_ns, DurationBound::non_negative);
  reader.text("--journal-checkpoint-root", o.journal_checkpoint_root);
}

void read_archive_flags(FlagReader& reader, ServeOptions& o) {
  reader.text("--archive-url", o.archive_url);
  if (reader.ok() && !o.archive_url.empty()) {
    if (auto at = archive::parse_archive_url(o.archive_url); !at.ok()) {
      reader.reject("--archive-url", o.archive_url, at.message());
    }
  }
  reader.integer("--archive-segment-records", o.archive_segment_records, 1, 10'000'000);
  reader.duration("--archive-segment-interval", o.archive_segment_interval_ns, DurationBound::positive);
  reader.integer("--archive-lock-days", o.archive_lock_days, 0, 36'500);
  reader.choice("--archive-lock-mode", o.archive_lock_mode,
                {{"governance", std::string("governance")}, {"compliance", std::string("compliance")}});
  reader.choice("--archive-addressing", o.archive_addressing,
                {{"auto", std::string("auto")}, {"path", std::string("path")}, {"virtual", std::string("virtual")}});
}

void read_simulator_flags(FlagReader& reader, ServeOptions& o) {
  reader.non_empty_text("--scenario", o.scenario);
  int64_t seed = static_cast<int64_t>(o.seed);
  reader.integer("--seed", seed, 0);
  o.seed = static_cast<uint64_t>(seed);
  reader.positive_decimal_ppm("--simulate-speed", o.simulate_speed_ppm);
  reader.choice("--simulate-clock", o.simulate_clock,
                {{"wall", SimulateClock::wall}, {"virtual", SimulateClock::virtual_time}});
  reader.duration("--simulate-duration", o.simulate_duration_ns, DurationBound::non_negative);
}

// --simulate uses no API server: no election, and the debug API on loopback for the curl lines.
void apply_simulate_implications(const ParsedFlags& flags, ServeOptions& o) {
  if (!o.simulate) return;
  o.leader_elect = false;
  o.enable_api_handler = true;
  o.api_handler_bind_address = "127.0.0.1";
  if (!flags.given("--journal-dir")) o.journal_dir = kSimulateJournalDir;
}

}  // namespace

std::string_view to_string(RawObjectsMode mode) {
  switch (mode) {
    case RawObjectsMode::full:
      return "full";
    case RawObjectsMode::off:
      return "off";
    case RawObjectsMode::redacted:
      break;
  }
  return "redacted";
}

std::string_view to_string(CorruptionPolicy policy) {
  return policy == CorruptionPolicy::fail ? "fail" : "quarantine";
}

std::string_view to_string(SimulateClock clock) {
  return clock == SimulateClock::virtual_time ? "virtual" : "wall";
}

// Over 100 lines on purpose: the table of every `serve` flag, one entry each in help order, so
// the help text, the parser and behaviour.md §21 can be checked against one list.
const CommandSpec& serve_command_spec() {
  static const CommandSpec spec{
      .path = "serve",
      .summary = "run the controller, against a cluster or (--simulate) a built-in simulated one",
      .description =
          "Runs koordq: it watches QueueUnits, Queues and ElasticQuotas, appends every input and every decision "
          "to its journal before acting on it, admits QueueUnits into ElasticQuota capacity through one Queue per "
          "quota, and serves metrics, the visibility API and the debug API. With --simulate it runs against an "
          "in-process simulated cluster and needs no API server. An unknown flag or an invalid value ends it with "
          "exit code 2.",
      .usage = {"koordq serve [flags]"},
      .arguments = {},
      .flag_groups =
          {
              {"Kubernetes client",
               {
                   {"--kubeconfig", "", "PATH", "\"\"",
                    "kubeconfig path; when empty, env KUBECONFIG, else the in-cluster configuration"},
                   {"--qps", "", "QPS", "50", "client-side rate limit of API requests per second, a decimal > 0"},
                   {"--burst", "", "N", "50", "client-side burst of API requests (>= 1)"},
                   {"--watch-timeout", "", "DURATION", "5m",
                    "Go duration >= 1s; each WATCH asks the API server to end it after a time drawn from [this, "
                    "twice this] (timeoutSeconds, as client-go's reflector); a watch silent past its timeoutSeconds "
                    "plus a tenth of it (5s to 30s) is taken as stalled, dropped and resumed"},
               }},
              {"Scheduling",
               {
                   {"--oversellrate", "", "RATE", "1",
                    "factor applied to every ElasticQuota max: a decimal > 0 with at most 6 fractional digits"},
                   {"--pod-initial-backoff-seconds", "--podInitialBackoffSeconds", "N", "1",
                    "first backoff after a failed attempt, in seconds (>= 1)"},
                   {"--pod-max-backoff-seconds", "--podMaxBackoffSeconds", "N", "20",
                    "backoff cap, in seconds (>= --pod-initial-backoff-seconds)"},
                   {"--schedule-suspend-time-ms", "--scheduleSuspendTimeInMillSecond", "MS", "10",
                    "pause of a queue after each of its attempts, in milliseconds (>= 0)"},
                   {"--default-reclaim-protect-time", "", "DURATION", "0s",
                    "Go duration; admitted units younger than this are not preempted (Koord-Queue's "
                    "defaultReclaimProtectTime)"},
                   {"--queue-namespace", "", "NAMESPACE", "koord-queue", "namespace of the Queues"},
                   {"--queue-items-max", "", "N", "500",
                    "entries per list in Queue status queueItemDetails (>= 0; 0 publishes empty lists)"},
                   {"--actor-threads", "", "N", "0",
                    "worker threads of the decision actors; quota trees decide in parallel (0: one per core, and "
                    "under --simulate-clock=virtual no actors: the loop decides on its own thread; every value "
                    "gives the same decisions)"},
               }},
              {"Visibility API",
               {
                   {"--enable-visibility-server", "--enableVisibilityServer", "", "true",
                    "serve the visibility API (on the leader)"},
                   {"--visibility-port", "", "PORT", "8082", "visibility API port (HTTPS)"},
                   {"--visibility-tls-cert-file", "", "PATH", "\"\"",
                    "serving certificate; self-signed when empty; re-read when it changes"},
                   {"--visibility-tls-key-file", "", "PATH", "\"\"", "key of --visibility-tls-cert-file"},
                   {"--visibility-client-ca-file", "", "PATH", "\"\"",
                    "CA of client certificates; when empty, taken from the cluster"},
                   {"--visibility-requestheader-allowed-names", "", "NAMES", "\"\"",
                    "comma-separated CNs the --visibility-client-ca-file certificates may carry; empty: any"},
                   {"--visibility-apiservice", "", "NAME", "v1alpha1.visibility.koord-queue.x-k8s.io",
                    "APIService whose caBundle koordq keeps in step with its serving certificate; \"\": none"},
                   {"--max-connections", "", "N", "1000",
                    "concurrent connections per visibility or debug server (>= 1)"},
               }},
              {"Debug API",
               {
                   {"--enable-api-handler", "--enableApiHandler", "", "false",
                    "start the debug listener on every replica (always on with --simulate): the debug API, the journal "
                    "stream and the web console at http://ADDRESS:PORT/console/"},
                   {"--api-handler-bind-address", "", "ADDRESS", "127.0.0.1",
                    "debug API address (127.0.0.1 with --simulate)"},
                   {"--api-handler-port", "", "PORT", "19876", "debug API port (HTTP)"},
               }},
              {"Time travel and journal stream",
               {
                   {"--max-inflight-timetravel", "", "N", "4",
                    "concurrent time-travel reconstructions; more are refused with 429 (>= 1)"},
                   {"--timetravel-cache-mb", "", "MIB", "256",
                    "MiB of reconstructed states kept per revision, least recently used evicted (>= 0)"},
                   {"--stream-max-lag", "", "N", "100000",
                    "records a journal-stream reader may fall behind before it is disconnected (>= 1)"},
               }},
              {"Metrics",
               {
                   {"--metrics-bind-address", "", "ADDRESS", ":10259", "[host]:port of /metrics, /healthz and /readyz"},
               }},
              {"Leader election",
               {
                   {"--leader-elect", "--leaderElection", "", "true",
                    "take part in leader election; false acts as leader at once (false with --simulate)"},
                   {"--leader-election-id", "", "NAME", "koordq", "Lease name"},
                   {"--leader-election-namespace", "", "NAMESPACE", "$POD_NAMESPACE, else koord-queue",
                    "Lease namespace"},
                   {"--leader-elect-lease-duration", "", "DURATION", "15s", "Go duration; Lease duration"},
                   {"--leader-elect-renew-deadline", "", "DURATION", "10s",
                    "Go duration; less than --leader-elect-lease-duration"},
                   {"--leader-elect-retry-period", "", "DURATION", "2s",
                    "Go duration; less than --leader-elect-renew-deadline and than the lease duration minus the renew "
                    "deadline"},
                   {"--legacy-lease-guard", "", "NAMESPACE/NAME", "default/example-lease",
                    "Lease (Koord-Queue's) that must be free or expired before koordq leads; \"\" turns the guard "
                    "off"},
               }},
              {"Journal",
               {
                   {"--journal-dir", "", "DIR", "/var/lib/koordq/journal; ./koordq-data/journal with --simulate",
                    "journal location"},
                   {"--journal-max-batch-delay", "", "DURATION", "1ms",
                    "Go duration; longest a record waits to join a group commit"},
                   {"--journal-retention", "", "AGE|SIZE", "30d",
                    "history kept: an age (30d, 720h; unit d = 24h) or a size (20GiB)"},
                   {"--journal-max-size", "", "SIZE", "20GiB",
                    "cap on the journal's disk use, besides --journal-retention (units B, KB, MB, GB, TB, KiB, "
                    "MiB, GiB, TiB)"},
                   {"--snapshot-every", "", "N", "20000",
                    "records between snapshots, the most a time-travel query replays (>= 1)"},
                   {"--snapshot-retention", "", "N", "48", "snapshots kept (>= 1)"},
                   {"--journal-raw-objects", "", "MODE", "redacted",
                    "raw JSON of watched objects in the journal: redacted (env values and data entries replaced "
                    "by digests), full or off"},
                   {"--journal-on-corruption", "", "POLICY", "quarantine",
                    "on a corrupt journal: quarantine (move it aside and start a new one) or fail (exit code 3)"},
                   {"--journal-signing-key-file", "", "FILE", "",
                    "Ed25519 private key (PEM, mode 0600, from koordq journal keygen) that signs HEAD and the "
                    "retention cut; a HEAD signed otherwise is corruption. Keep it outside the journal directory"},
                   {"--journal-witness-configmap", "", "NAME", "koordq-journal-witness",
                    "ConfigMap in --leader-election-namespace where the leader witnesses its journal's head (seq, "
                    "hash, time; signed with the key); created by the manifests, never by koordq; \"\" turns the "
                    "witness off"},
                   {"--journal-witness-period", "", "DURATION", "1m",
                    "Go duration (>= 1s) between two witness entries while the head moves"},
                   {"--journal-witness-history", "", "N", "60", "witness entries kept per journal (1..1000)"},
                   {"--tick-min-interval", "", "DURATION", "10ms", "Go duration; least time between two tick records"},
                   {"--journal-checkpoint-root", "", "DIR", "\"\"",
                    "the only directory the debug API's checkpoint endpoint writes under; empty: "
                    "<--journal-dir>/checkpoints"},
               }},
              {"Archive",
               {
                   {"--archive-url", "", "s3://BUCKET[/PREFIX]", "\"\"",
                    "the leader uploads sealed journal segments to this S3 bucket (endpoint, region and credentials "
                    "from AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or "
                    "AWS_SHARED_CREDENTIALS_FILE); retention then drops only what the archive holds; empty: no "
                    "archive"},
                   {"--archive-segment-records", "", "N", "10000", "records per segment (1..10000000)"},
                   {"--archive-segment-interval", "", "DURATION", "10m",
                    "Go duration; a shorter segment is sealed once its oldest record is this old"},
                   {"--archive-lock-days", "", "N", "0",
                    "put every segment under S3 Object Lock retention for N days (0..36500; needs a bucket with "
                    "Object Lock); 0: no retention"},
                   {"--archive-lock-mode", "", "MODE", "governance",
                    "Object Lock mode: governance (a user with the bypass right may delete) or compliance (nobody "
                    "may, not even the bucket's owner, until the date)"},
                   {"--archive-addressing", "", "STYLE", "auto",
                    "S3 addressing: auto (virtual-host for AWS, path-style for any other endpoint), path or virtual"},
               }},
              {"Simulator",
               {
                   {"--simulate", "", "", "false",
                    "run against an in-process simulated cluster; implies --leader-elect=false and the debug API "
                    "on 127.0.0.1"},
                   {"--scenario", "", "NAME|FILE", "default",
                    "simulator scenario: a built-in name or a scenario file (needs --simulate)"},
                   {"--seed", "", "N", "1", "simulator random seed (>= 0; needs --simulate)"},
                   {"--simulate-speed", "", "FACTOR", "1",
                    "decimal > 0 dividing the simulator's own intervals, not koordq's timers (needs --simulate)"},
                   {"--simulate-clock", "", "CLOCK", "wall",
                    "wall, or virtual: discrete events, so one scenario, seed and duration write identical "
                    "journals, not fsync'd per round since the seed reproduces them (needs --simulate)"},
                   {"--simulate-duration", "", "DURATION", "0s",
                    "Go duration of simulated time after which serve exits with code 0; 0s runs forever (needs "
                    "--simulate)"},
               }},
              {"Logging",
               {
                   {"--v", "", "LEVEL", "0", "log verbosity: a message of level L appears when --v >= L"},
               }},
              {"Koord-Queue flags accepted and ignored (each logs a warning)", kIgnoredFlags},
          },
      .subcommands = {},
      .sections = {},
      .exit_codes =
          {
              "0  orderly shutdown, or the end of --simulate-duration",
              "1  leadership lost (the container restarts from a clean state)",
              "2  unknown flag or invalid value",
              "3  corrupt journal with --journal-on-corruption=fail, or the journal cannot be written",
          },
  };
  return spec;
}

Result<ServeOptions> read_serve_options(const ParsedFlags& flags, const CommandEnvironment& env) {
  ServeOptions o;
  if (env.pod_namespace) o.leader_election_namespace = *env.pod_namespace;

  FlagReader reader(kServeCommand, flags);
  reader.boolean("--simulate", o.simulate);
  if (reader.ok() && !o.simulate) {
    for (std::string_view flag : kSimulatorOnlyFlags) {
      if (flags.given(flag)) return usage_error(kServeCommand, std::string(flag) + " requires --simulate");
    }
  }
  read_client_flags(reader, o);
  read_scheduling_flags(reader, o);
  read_server_flags(reader, o);
  read_leader_election_flags(reader, o);
  read_journal_flags(reader, o);
  read_archive_flags(reader, o);
  read_simulator_flags(reader, o);
  int64_t verbosity = 0;
  reader.integer("--v", verbosity, 0, 100);
  o.verbosity = static_cast<int>(verbosity);
  if (!reader.ok()) return reader.error();
  if (!flags.positionals().empty()) {
    return usage_error(kServeCommand,
                       "unexpected argument \"" + flags.positionals().front() + "\": serve takes only flags");
  }

  for (const FlagSpec& ignored : kIgnoredFlags) {
    if (flags.given(ignored.name)) o.ignored_flags.emplace_back(ignored.name);
  }
  apply_simulate_implications(flags, o);
  return o;
}

}  // namespace koordq::cmd
