// `koordq serve` flags (behaviour.md §21), parsed exactly as the binary parses them.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "actors/wire/config_wire.hpp"
#include "cmd/command_line.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/serve_config.hpp"
#include "cmd/serve_startup_log.hpp"

namespace koordq::cmd {
namespace KOORDQ_TEST_LOCAL {

using base::kDay;
using base::kMillisecond;
using base::kMinute;
using base::kSecond;

std::variant<CommandOptions, CommandLineExit> parse_serve(std::vector<std::string> args,
                                                          const CommandEnvironment& env) {
  args.insert(args.begin(), "serve");
  return parse_command_line(args, env);
}

ServeOptions serve_options(std::vector<std::string> args, const CommandEnvironment& env = {}) {
  auto parsed = parse_serve(std::move(args), env);
  if (const auto* exit = std::get_if<CommandLineExit>(&parsed)) {
    ADD_FAILURE() << "exit " << exit->exit_code << ": " << exit->err;
    return {};
  }
  return std::get<ServeOptions>(std::get<CommandOptions>(parsed));
}

// The one stderr line (without its newline) of a usage error; fails unless the exit code is 2.
std::string serve_error(std::vector<std::string> args, const CommandEnvironment& env = {}) {
  auto parsed = parse_serve(std::move(args), env);
  const auto* exit = std::get_if<CommandLineExit>(&parsed);
  if (exit == nullptr) {
    ADD_FAILURE() << "parsed without error";
    return {};
  }
  EXPECT_EQ(exit->exit_code, kExitUsage);
  EXPECT_EQ(exit->out, "");
  EXPECT_TRUE(exit->err.ends_with("\n"));
  EXPECT_EQ(std::count(exit->err.begin(), exit->err.end(), '\n'), 1) << exit->err;
  return exit->err.substr(0, exit->err.size() - 1);
}

std::string invalid(const std::string& value, const std::string& flag, const std::string& requirement) {
  return "koordq serve: invalid value \"" + value + "\" for " + flag + ": " + requirement +
         "; see 'koordq serve --help'";
}

TEST(ServeFlags, defaults_are_the_table_of_behaviour_21) {
  const ServeOptions o = serve_options({});
  EXPECT_EQ(o.kubeconfig, "");
  EXPECT_EQ(o.qps, 50);
  EXPECT_EQ(o.burst, 50);
  EXPECT_EQ(o.watch_timeout_ns, 5 * kMinute);
  EXPECT_EQ(o.oversell_rate_ppm, 1'000'000);
  EXPECT_EQ(o.pod_initial_backoff_seconds, 1);
  EXPECT_EQ(o.pod_max_backoff_seconds, 20);
  EXPECT_EQ(o.schedule_suspend_time_ms, 10);
  EXPECT_EQ(o.default_reclaim_protect_time_ns, 0);
  EXPECT_EQ(o.queue_namespace, "koord-queue");
  EXPECT_EQ(o.queue_items_max, 500);
  EXPECT_FALSE(o.enable_api_handler);
  EXPECT_EQ(o.api_handler_bind_address, "127.0.0.1");
  EXPECT_EQ(o.api_handler_port, 19876);
  EXPECT_TRUE(o.enable_visibility_server);
  EXPECT_EQ(o.visibility_port, 8082);
  EXPECT_EQ(o.visibility_tls_cert_file, "");
  EXPECT_EQ(o.visibility_tls_key_file, "");
  EXPECT_EQ(o.visibility_client_ca_file, "");
  EXPECT_EQ(o.max_connections, 1000);
  EXPECT_EQ(o.max_inflight_timetravel, 4);
  EXPECT_EQ(o.timetravel_cache_mb, 256);
  EXPECT_EQ(o.stream_max_lag, 100000);
  EXPECT_EQ(o.metrics_bind_address, ":10259");
  EXPECT_TRUE(o.leader_elect);
  EXPECT_EQ(o.leader_election_id, "koordq");
  EXPECT_EQ(o.leader_election_namespace, "koord-queue");
  EXPECT_EQ(o.leader_elect_lease_duration_ns, 15 * kSecond);
  EXPECT_EQ(o.leader_elect_renew_deadline_ns, 10 * kSecond);
  EXPECT_EQ(o.leader_elect_retry_period_ns, 2 * kSecond);
  EXPECT_EQ(o.legacy_lease_guard, (NamespacedName{"default", "example-lease"}));
  EXPECT_EQ(o.journal_dir, "/var/lib/koordq/journal");
  EXPECT_EQ(o.journal_max_batch_delay_ns, kMillisecond);
  EXPECT_EQ(o.journal_retention, (base::Retention{base::Retention::Kind::age, 30 * kDay}));
  EXPECT_EQ(o.journal_max_size_bytes, int64_t{20} << 30);
  EXPECT_EQ(o.snapshot_every, 20000);
  EXPECT_EQ(o.snapshot_retention, 48);
  EXPECT_EQ(o.journal_raw_objects, RawObjectsMode::redacted);
  EXPECT_EQ(o.journal_on_corruption, CorruptionPolicy::quarantine);
  EXPECT_EQ(o.tick_min_interval_ns, 10 * kMillisecond);
  EXPECT_FALSE(o.simulate);
  EXPECT_EQ(o.scenario, "default");
  EXPECT_EQ(o.seed, 1u);
  EXPECT_EQ(o.simulate_speed_ppm, 1'000'000);
  EXPECT_EQ(o.simulate_clock, SimulateClock::wall);
  EXPECT_EQ(o.simulate_duration_ns, 0);
  EXPECT_EQ(o.verbosity, 0);
  EXPECT_TRUE(o.ignored_flags.empty());
}

TEST(ServeFlags, lease_namespace_defaults_to_pod_namespace) {
  CommandEnvironment env;
  env.pod_namespace = "team-ops";
  EXPECT_EQ(serve_options({}, env).leader_election_namespace, "team-ops");
  EXPECT_EQ(serve_options({"--leader-election-namespace", "x"}, env).leader_election_namespace, "x");
}

// Every flag of behaviour.md §21 with a valid non-default value.
const std::vector<std::vector<std::string>> kEveryFlag = {
    {"--kubeconfig", "/etc/kube/config"},
    {"--qps", "12.5"},
    {"--burst", "70"},
    {"--watch-timeout", "30s"},
    {"--oversellrate", "1.5"},
    {"--pod-initial-backoff-seconds", "2"},
    {"--pod-max-backoff-seconds", "40"},
    {"--schedule-suspend-time-ms", "0"},
    {"--default-reclaim-protect-time", "5m"},
    {"--queue-namespace", "queues"},
    {"--queue-items-max", "0"},
    {"--enable-api-handler"},
    {"--api-handler-bind-address", "0.0.0.0"},
    {"--api-handler-port", "1"},
    {"--enable-visibility-server=false"},
    {"--visibility-port", "65535"},
    {"--visibility-tls-cert-file", "tls.crt", "--visibility-tls-key-file", "tls.key"},
    {"--visibility-client-ca-file", "ca.crt"},
    {"--visibility-requestheader-allowed-names", "front-proxy-client,aggregator"},
    {"--visibility-apiservice", ""},
    {"--max-connections", "10"},
    {"--max-inflight-timetravel", "1"},
    {"--timetravel-cache-mb", "0"},
    {"--stream-max-lag", "5"},
    {"--metrics-bind-address", "0.0.0.0:9090"},
    {"--leader-elect=false"},
    {"--leader-election-id", "lease"},
    {"--leader-election-namespace", "ops"},
    {"--leader-elect-lease-duration", "30s"},
    {"--leader-elect-renew-deadline", "9s"},
    {"--leader-elect-retry-period", "1s"},
    {"--legacy-lease-guard", "kube-system/old"},
    {"--journal-dir", "/data/journal"},
    {"--journal-max-batch-delay", "0s"},
    {"--journal-retention", "20GiB"},
    {"--journal-max-size", "1TB"},
    {"--snapshot-every", "100"},
    {"--snapshot-retention", "1"},
    {"--journal-raw-objects", "off"},
    {"--journal-on-corruption", "fail"},
    {"--tick-min-interval", "1ms"},
    {"--journal-checkpoint-root", "/data/copies"},
    {"--actor-threads", "4"},
    {"--simulate"},
    {"--simulate", "--scenario", "burst.yaml"},
    {"--simulate", "--seed", "7"},
    {"--simulate", "--simulate-speed", "10"},
    {"--simulate", "--simulate-clock", "virtual"},
    {"--simulate", "--simulate-duration", "1h"},
    {"--v", "5"},
};

TEST(ServeFlags, every_flag_of_the_table_is_accepted_and_in_the_help) {
  auto parsed = parse_command_line({"serve", "--help"}, {});
  const std::string help = std::get<CommandLineExit>(parsed).out;
  for (const std::vector<std::string>& args : kEveryFlag) {
    serve_options(args);
    for (const std::string& arg : args) {
      if (arg.starts_with("--")) {
        EXPECT_NE(help.find("  " + arg.substr(0, arg.find('=')) + " "), std::string::npos) << arg;
      }
    }
  }
}

// behaviour.md §16.1: the allowed names of --visibility-client-ca-file, and the APIService whose
// caBundle koordq keeps ("" for none).
TEST(ServeFlags, visibility_allowed_names_and_apiservice) {
  const ServeOptions defaults = serve_options({});
  EXPECT_TRUE(defaults.visibility_requestheader_allowed_names.empty());
  EXPECT_EQ(defaults.visibility_apiservice, "v1alpha1.visibility.koord-queue.x-k8s.io");
  const ServeOptions o = serve_options(
      {"--visibility-requestheader-allowed-names", "front-proxy-client,,aggregator", "--visibility-apiservice="});
  EXPECT_EQ(o.visibility_requestheader_allowed_names, (std::vector<std::string>{"front-proxy-client", "aggregator"}));
  EXPECT_EQ(o.visibility_apiservice, "");
}

TEST(ServeFlags, typed_values) {
  const ServeOptions o =
      serve_options({"--qps=12.5", "--oversellrate", "1.2", "--default-reclaim-protect-time=1m30s",
                     "--journal-retention", "20GiB", "--journal-max-size=500MB", "--journal-raw-objects=full",
                     "--journal-on-corruption", "fail", "--legacy-lease-guard=kube-system/old", "--v=3"});
  EXPECT_EQ(o.qps, 12.5);
  EXPECT_EQ(o.oversell_rate_ppm, 1'200'000);
  EXPECT_EQ(o.default_reclaim_protect_time_ns, 90 * kSecond);
  EXPECT_EQ(o.journal_retention, (base::Retention{base::Retention::Kind::size, int64_t{20} << 30}));
  EXPECT_EQ(o.journal_max_size_bytes, 500'000'000);
  EXPECT_EQ(o.journal_raw_objects, RawObjectsMode::full);
  EXPECT_EQ(o.journal_on_corruption, CorruptionPolicy::fail);
  EXPECT_EQ(o.legacy_lease_guard, (NamespacedName{"kube-system", "old"}));
  EXPECT_EQ(o.verbosity, 3);
}

TEST(ServeFlags, decision_config_is_what_the_config_record_carries) {
  const ServeOptions o =
      serve_options({"--oversellrate=1.5", "--pod-initial-backoff-seconds=2", "--pod-max-backoff-seconds=30",
                     "--schedule-suspend-time-ms=7", "--default-reclaim-protect-time=1m30s", "--queue-namespace=queues",
                     "--queue-items-max=9"});
  const actors::DecisionConfig c = decision_config_of(o);
  EXPECT_EQ(c.oversell_rate_ppm, 1'500'000);
  EXPECT_EQ(c.initial_backoff_nanos, 2 * kSecond);
  EXPECT_EQ(c.max_backoff_nanos, 30 * kSecond);
  EXPECT_EQ(c.schedule_suspend_nanos, 7 * kMillisecond);
  EXPECT_EQ(c.reclaim_protect_nanos, 90 * kSecond);
  EXPECT_EQ(c.queue_namespace, "queues");
  EXPECT_EQ(c.queue_items_max, 9);
  // Replay reads the same settings back from the record serve writes.
  auto body = make_config_body(o, "00000000-0000-4000-8000-000000000001", std::nullopt);
  auto journaled = actors::read_journal_config(body->record().asReader().getBody().getConfig());
  ASSERT_TRUE(journaled.ok()) << journaled.message();
  EXPECT_EQ(journaled->decision, c);
  EXPECT_EQ(journaled->decision_logic_version, actors::kDecisionLogicVersion);
  EXPECT_EQ(decision_config_of(serve_options({})), actors::DecisionConfig{});
}

// The journal of a virtual-clock simulation is named by its seed with an honest RFC 4122 version 5
// UUID (SHA-1; version nibble 5, variant 10): Python's uuid.uuid5(uuid.uuid5(NAMESPACE_DNS,
// "koordq.io"), "koordq-simulate-seed:7"). Other serves leave the UUID to the journal (random).
TEST(ServeFlags, a_virtual_simulation_names_its_journal_with_the_version_5_uuid_of_its_seed) {
  const auto seeded = journal_options_of(
      serve_options({"--simulate", "--simulate-clock=virtual", "--simulate-duration=1m", "--seed=7"}));
  EXPECT_EQ(seeded.new_uuid, "47eb4055-62a3-5ea9-ae1c-cafefabe5627");
  EXPECT_EQ(uuid_from_seed(3), "4d76c83f-95e7-5467-a5c3-1e4f39d91b8c");
  EXPECT_EQ(journal_options_of(serve_options({"--simulate", "--seed=7"})).new_uuid, "");
  EXPECT_EQ(journal_options_of(serve_options({})).new_uuid, "");
}

TEST(ServeFlags, koord_queue_camel_case_spellings_are_aliases) {
  const ServeOptions o = serve_options({"--podInitialBackoffSeconds=3", "--podMaxBackoffSeconds", "30",
                                        "--scheduleSuspendTimeInMillSecond", "25", "--enableApiHandler",
                                        "--enableVisibilityServer=false", "--leaderElection=false"});
  EXPECT_EQ(o.pod_initial_backoff_seconds, 3);
  EXPECT_EQ(o.pod_max_backoff_seconds, 30);
  EXPECT_EQ(o.schedule_suspend_time_ms, 25);
  EXPECT_TRUE(o.enable_api_handler);
  EXPECT_FALSE(o.enable_visibility_server);
  EXPECT_FALSE(o.leader_elect);
}

TEST(ServeFlags, equals_and_separate_values_are_the_same) {
  EXPECT_EQ(serve_options({"--burst=7"}).burst, 7);
  EXPECT_EQ(serve_options({"--burst", "7"}).burst, 7);
}

TEST(ServeFlags, a_boolean_flag_alone_means_true_and_takes_go_boolean_values) {
  EXPECT_TRUE(serve_options({"--enable-api-handler"}).enable_api_handler);
  for (const char* yes : {"1", "t", "T", "TRUE", "true", "True"}) {
    EXPECT_TRUE(serve_options({std::string("--enable-api-handler=") + yes}).enable_api_handler) << yes;
  }
  for (const char* no : {"0", "f", "F", "FALSE", "false", "False"}) {
    EXPECT_FALSE(serve_options({std::string("--leader-elect=") + no}).leader_elect) << no;
  }
  EXPECT_EQ(serve_error({"--leader-elect=maybe"}), invalid("maybe", "--leader-elect", "must be true or false"));
  EXPECT_EQ(serve_error({"--leader-elect="}), invalid("", "--leader-elect", "must be true or false"));
}

TEST(ServeFlags, a_boolean_flag_does_not_take_the_next_argument) {
  EXPECT_EQ(serve_error({"--leader-elect", "false"}),
            "koordq serve: unexpected argument \"false\": serve takes only flags; see 'koordq serve --help'");
}

TEST(ServeFlags, the_last_of_repeated_flags_wins) {
  EXPECT_EQ(serve_options({"--burst", "1", "--burst=2"}).burst, 2);
  EXPECT_TRUE(serve_options({"--leader-elect=false", "--leader-elect"}).leader_elect);
}

TEST(ServeFlags, an_empty_value_after_equals_is_empty) {
  EXPECT_EQ(serve_options({"--legacy-lease-guard="}).legacy_lease_guard, std::nullopt);
  EXPECT_EQ(serve_options({"--legacy-lease-guard", ""}).legacy_lease_guard, std::nullopt);
  EXPECT_EQ(serve_options({"--kubeconfig=", "--burst", "3"}).burst, 3) << "must not take the next argument";
}

TEST(ServeFlags, the_value_after_a_flag_is_taken_whatever_it_looks_like) {
  EXPECT_EQ(serve_error({"--qps", "--burst", "5"}),
            invalid("--burst", "--qps", "must be a decimal > 0 with at most 6 fractional digits, such as 1 or 1.25"));
  EXPECT_EQ(serve_options({"--default-reclaim-protect-time", "-0"}).default_reclaim_protect_time_ns, 0);
}

struct InvalidCase {
  std::vector<std::string> args;
  std::string flag;
  std::string value;
  std::string requirement;
};

const std::string kDecimal = "must be a decimal > 0 with at most 6 fractional digits, such as 1 or 1.25";
const std::string kNonNegativeDuration = "must be a Go duration >= 0 such as 300ms, 1.5s or 2h45m";
const std::string kPositiveDuration = "must be a Go duration > 0 such as 300ms, 1.5s or 2h45m";
const std::string kPort = "must be a port between 0 and 65535 (0: any free port)";

const std::vector<InvalidCase> kInvalid = {
    {{"--qps", "0"}, "--qps", "0", kDecimal},
    {{"--burst", "0"}, "--burst", "0", "must be an integer >= 1"},
    {{"--watch-timeout", "500ms"}, "--watch-timeout", "500ms", "must be a Go duration >= 1s"},
    {{"--watch-timeout", "0s"}, "--watch-timeout", "0s", kPositiveDuration},
    {{"--oversellrate", "0"}, "--oversellrate", "0", kDecimal},
    {{"--oversellrate", "-1"}, "--oversellrate", "-1", kDecimal},
    {{"--oversellrate", "1.0000001"}, "--oversellrate", "1.0000001", kDecimal},
    {{"--oversellrate", "1e3"}, "--oversellrate", "1e3", kDecimal},
    {{"--pod-initial-backoff-seconds", "0"}, "--pod-initial-backoff-seconds", "0", "must be an integer >= 1"},
    {{"--pod-max-backoff-seconds", "abc"},
     "--pod-max-backoff-seconds",
     "abc",
     "must be an integer >= --pod-initial-backoff-seconds (1)"},
    {{"--pod-initial-backoff-seconds", "5", "--podMaxBackoffSeconds", "4"},
     "--pod-max-backoff-seconds",
     "4",
     "must be an integer >= --pod-initial-backoff-seconds (5)"},
    {{"--pod-initial-backoff-seconds", "30"},
     "--pod-initial-backoff-seconds",
     "30",
     "must be an integer between 1 and --pod-max-backoff-seconds (20)"},
    {{"--schedule-suspend-time-ms", "-1"}, "--schedule-suspend-time-ms", "-1", "must be an integer >= 0"},
    {{"--default-reclaim-protect-time", "5"}, "--default-reclaim-protect-time", "5", kNonNegativeDuration},
    {{"--default-reclaim-protect-time", "-5s"}, "--default-reclaim-protect-time", "-5s", kNonNegativeDuration},
    {{"--queue-namespace="}, "--queue-namespace", "", "must not be empty"},
    {{"--queue-items-max", "-1"}, "--queue-items-max", "-1", "must be an integer >= 0"},
    {{"--queue-items-max", "1.5"}, "--queue-items-max", "1.5", "must be an integer >= 0"},
    {{"--api-handler-port", "-1"}, "--api-handler-port", "-1", kPort},
    {{"--visibility-port", "65536"}, "--visibility-port", "65536", kPort},
    {{"--max-connections", "0"}, "--max-connections", "0", "must be an integer >= 1"},
    {{"--metrics-bind-address", "10259"},
     "--metrics-bind-address",
     "10259",
     "must be [host]:port with a port between 0 and 65535 (0: any free port), such as :10259 or 0.0.0.0:10259"},
    {{"--metrics-bind-address", ":65536"},
     "--metrics-bind-address",
     ":65536",
     "must be [host]:port with a port between 0 and 65535 (0: any free port), such as :10259 or 0.0.0.0:10259"},
    {{"--leader-elect-lease-duration", "0s"}, "--leader-elect-lease-duration", "0s", kPositiveDuration},
    {{"--leader-elect-renew-deadline", "15s"},
     "--leader-elect-renew-deadline",
     "15s",
     "must be a Go duration less than --leader-elect-lease-duration (15s)"},
    {{"--leader-elect-lease-duration", "10s"},
     "--leader-elect-lease-duration",
     "10s",
     "must be a Go duration greater than --leader-elect-renew-deadline (10s)"},
    {{"--leader-elect-retry-period", "10s"},
     "--leader-elect-retry-period",
     "10s",
     "must be a Go duration less than --leader-elect-renew-deadline (10s)"},
    {{"--leader-elect-retry-period", "5s"},
     "--leader-elect-retry-period",
     "5s",
     "must be a Go duration less than --leader-elect-lease-duration minus --leader-elect-renew-deadline (5s)"},
    {{"--leader-elect-lease-duration", "11s"},
     "--leader-elect-lease-duration",
     "11s",
     "must be a Go duration greater than --leader-elect-renew-deadline plus --leader-elect-retry-period (12s)"},
    {{"--legacy-lease-guard", "example-lease"},
     "--legacy-lease-guard",
     "example-lease",
     "must be <namespace>/<name>, or \"\" for none"},
    {{"--legacy-lease-guard", "default/Example"},
     "--legacy-lease-guard",
     "default/Example",
     "must be <namespace>/<name>, or \"\" for none"},
    {{"--journal-max-batch-delay", "1"}, "--journal-max-batch-delay", "1", kNonNegativeDuration},
    {{"--journal-retention", "30"},
     "--journal-retention",
     "30",
     "must be an age > 0 such as 30d or 720h, or a size > 0 such as 20GiB"},
    {{"--journal-retention", "0B"},
     "--journal-retention",
     "0B",
     "must be an age > 0 such as 30d or 720h, or a size > 0 such as 20GiB"},
    {{"--journal-max-size", "20G"},
     "--journal-max-size",
     "20G",
     "must be a size > 0 such as 500MB or 20GiB (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)"},
    {{"--snapshot-every", "0"}, "--snapshot-every", "0", "must be an integer >= 1"},
    {{"--snapshot-retention", "0"}, "--snapshot-retention", "0", "must be an integer >= 1"},
    {{"--journal-raw-objects", "raw"}, "--journal-raw-objects", "raw", "must be redacted, full or off"},
    {{"--journal-on-corruption", "ignore"}, "--journal-on-corruption", "ignore", "must be quarantine or fail"},
    {{"--tick-min-interval", "fast"}, "--tick-min-interval", "fast", kNonNegativeDuration},
    {{"--actor-threads", "-1"}, "--actor-threads", "-1", "must be an integer >= 0"},
    {{"--simulate", "--seed", "-1"}, "--seed", "-1", "must be an integer >= 0"},
    {{"--simulate", "--simulate-speed", "0"}, "--simulate-speed", "0", kDecimal},
    {{"--simulate", "--simulate-clock", "fake"}, "--simulate-clock", "fake", "must be wall or virtual"},
    {{"--simulate", "--simulate-duration", "1d"}, "--simulate-duration", "1d", kNonNegativeDuration},
    {{"--v", "-1"}, "--v", "-1", "must be an integer between 0 and 100"},
    {{"--simulate=yes"}, "--simulate", "yes", "must be true or false"},
};

TEST(ServeFlags, invalid_values_name_the_flag_the_value_and_the_fix) {
  for (const InvalidCase& c : kInvalid) {
    EXPECT_EQ(serve_error(c.args), invalid(c.value, c.flag, c.requirement)) << c.args[0];
  }
}

TEST(ServeFlags, simulator_flags_require_simulate) {
  for (const char* flag : {"--scenario", "--seed", "--simulate-speed", "--simulate-clock", "--simulate-duration"}) {
    const std::string value = std::string(flag) == "--simulate-clock" ? "wall" : "1";
    EXPECT_EQ(serve_error({flag, value}),
              "koordq serve: " + std::string(flag) + " requires --simulate; see 'koordq serve --help'");
    EXPECT_EQ(serve_error({"--simulate=false", flag, value}),
              "koordq serve: " + std::string(flag) + " requires --simulate; see 'koordq serve --help'");
  }
}

TEST(ServeFlags, simulate_turns_election_off_and_the_debug_api_on_at_loopback) {
  const ServeOptions o =
      serve_options({"--simulate", "--leader-elect=true", "--enable-api-handler=false", "--api-handler-bind-address",
                     "0.0.0.0", "--seed", "7", "--simulate-clock=virtual", "--simulate-duration", "1s"});
  EXPECT_TRUE(o.simulate);
  EXPECT_FALSE(o.leader_elect);
  EXPECT_TRUE(o.enable_api_handler);
  EXPECT_EQ(o.api_handler_bind_address, "127.0.0.1");
  EXPECT_EQ(o.journal_dir, "./koordq-data/journal");
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.simulate_clock, SimulateClock::virtual_time);
  EXPECT_EQ(o.simulate_duration_ns, kSecond);
  EXPECT_EQ(serve_options({"--simulate", "--journal-dir", "/tmp/j"}).journal_dir, "/tmp/j");
}

TEST(ServeFlags, ignored_koord_queue_flags_are_accepted_and_recorded) {
  const ServeOptions o =
      serve_options({"--config=/etc/koord-queue/config.yaml", "--strictDequeueMode", "--queue-list", "a,b",
                     "--default-queue-policy=Block", "--defaultPreemptible=true", "--enableParentLimit",
                     "--feature-gates", "A=true,B=false", "--admissionCheckControllerWorker", "4"});
  EXPECT_EQ(o.ignored_flags,
            (std::vector<std::string>{"--config", "--strictDequeueMode", "--queue-list", "--default-queue-policy",
                                      "--defaultPreemptible", "--enableParentLimit", "--feature-gates",
                                      "--admissionCheckControllerWorker"}));
}

TEST(ServeFlags, ignored_flags_log_one_warning_each) {
  ::testing::internal::CaptureStderr();
  log_serve_configuration(serve_options({"--config", "x", "--enableParentLimit"}));
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 2) << log;
  EXPECT_NE(log.find("] flag --config is accepted for compatibility with Koord-Queue and ignored"), std::string::npos);
  EXPECT_EQ(log[0], 'W');
}

TEST(ServeFlags, unknown_flags_and_missing_values_are_one_line_usage_errors) {
  EXPECT_EQ(serve_error({"--no-such-flag"}), "koordq serve: unknown flag --no-such-flag; see 'koordq serve --help'");
  EXPECT_EQ(serve_error({"--no-such-flag=3"}), "koordq serve: unknown flag --no-such-flag; see 'koordq serve --help'");
  EXPECT_EQ(serve_error({"-x"}), "koordq serve: unknown flag -x; see 'koordq serve --help'");
  EXPECT_EQ(serve_error({"--qps"}), "koordq serve: flag --qps needs a value; see 'koordq serve --help'");
  EXPECT_EQ(serve_error({"--podInitialBackoffSeconds"}),
            "koordq serve: flag --pod-initial-backoff-seconds needs a value; see 'koordq serve --help'");
}

TEST(ServeFlags, help_exits_0_on_stdout) {
  for (const char* help : {"--help", "-h"}) {
    auto parsed = parse_serve({"--qps", "5", help}, {});
    const auto& exit = std::get<CommandLineExit>(parsed);
    EXPECT_EQ(exit.exit_code, kExitSuccess);
    EXPECT_EQ(exit.err, "");
    EXPECT_NE(exit.out.find("Usage:\n  koordq serve [flags]"), std::string::npos);
    EXPECT_NE(exit.out.find("--podInitialBackoffSeconds"), std::string::npos);
  }
}

TEST(ServeFlags, the_effective_configuration_lists_every_flag_but_the_ignored_ones) {
  std::set<std::string> listed;
  for (const auto& [flag, value] : effective_serve_flags(ServeOptions{})) listed.insert(flag);
  std::set<std::string> table;
  for (const FlagSpec* flag : all_flags(serve_command_spec())) table.emplace(flag->name);
  for (const FlagGroup& group : serve_command_spec().flag_groups) {
    if (group.title.starts_with("Koord-Queue flags")) {
      for (const FlagSpec& ignored : group.flags) table.erase(std::string(ignored.name));
    }
  }
  EXPECT_EQ(listed, table);
}

TEST(ServeFlags, simulate_prints_the_curl_lines_of_behaviour_21) {
  EXPECT_EQ(simulate_curl_lines(serve_options({"--simulate"})),
            (std::vector<std::string>{
                "curl --cacert ./koordq-data/journal/simulate-certs/serving.crt --cert "
                "./koordq-data/journal/simulate-certs/client.crt --key ./koordq-data/journal/simulate-certs/client.key "
                "https://localhost:8082/apis/visibility.koord-queue.x-k8s.io/v1alpha1/queues",
                "curl http://127.0.0.1:19876/apis/v1/queue",
                "curl http://127.0.0.1:10259/metrics",
            }));
  const std::vector<std::string> lines =
      simulate_curl_lines(serve_options({"--simulate", "--enable-visibility-server=false", "--metrics-bind-address",
                                         "[::]:9000", "--api-handler-port", "2000"}));
  EXPECT_EQ(lines,
            (std::vector<std::string>{"curl http://127.0.0.1:2000/apis/v1/queue", "curl http://[::1]:9000/metrics"}));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::cmd
