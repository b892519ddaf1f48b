// Arguments of the offline and journal commands (behaviour.md §24), parsed as the binary does.
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cmd/command_line.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/what_if.hpp"

namespace koordq::cmd {
namespace KOORDQ_TEST_LOCAL {

template <class Options>
Options parsed_options(const std::vector<std::string>& args, const CommandEnvironment& env = {}) {
  auto parsed = parse_command_line(args, env);
  if (const auto* exit = std::get_if<CommandLineExit>(&parsed)) {
    ADD_FAILURE() << "exit " << exit->exit_code << ": " << exit->err;
    return {};
  }
  return std::get<Options>(std::get<CommandOptions>(parsed));
}

// The stderr line (without its newline) of a usage error; fails unless the exit code is 2.
std::string usage_error_line(const std::vector<std::string>& args, const CommandEnvironment& env = {}) {
  auto parsed = parse_command_line(args, env);
  const auto* exit = std::get_if<CommandLineExit>(&parsed);
  if (exit == nullptr) {
    ADD_FAILURE() << "parsed without error";
    return {};
  }
  EXPECT_EQ(exit->exit_code, kExitUsage);
  EXPECT_EQ(std::count(exit->err.begin(), exit->err.end(), '\n'), 1) << exit->err;
  return exit->err.substr(0, exit->err.size() - 1);
}

CommandEnvironment terminal() {
  CommandEnvironment env;
  env.stdout_is_terminal = true;
  return env;
}

struct ObjectCase {
  std::vector<std::string> words;
  AtObject object;
};

// §24.1's OBJECT table.
const std::vector<ObjectCase> kObjects = {
    {{"queues"}, {AtObject::Kind::queues, "", ""}},
    {{"queue", "team-a"}, {AtObject::Kind::queue, "", "team-a"}},
    {{"quotas"}, {AtObject::Kind::quotas, "", ""}},
    {{"quota", "team-a"}, {AtObject::Kind::quota, "", "team-a"}},
    {{"unit", "default/job-1"}, {AtObject::Kind::unit, "default", "job-1"}},
    {{"metrics"}, {AtObject::Kind::metrics, "", ""}},
    {{"debug", "elasticquota"}, {AtObject::Kind::debug_elasticquota, "", ""}},
    {{"debug", "queue"}, {AtObject::Kind::debug_queue, "", ""}},
    {{"debug", "userquota"}, {AtObject::Kind::debug_userquota, "", ""}},
    {{"queue", "version"}, {AtObject::Kind::queue, "", "version"}},
};

JournalSource source_of(JournalSource::Kind kind, std::string path) {
  JournalSource out;
  out.kind = kind;
  out.path = std::move(path);
  return out;
}

TEST(AtFlags, every_object_form_of_the_table) {
  for (const ObjectCase& c : kObjects) {
    std::vector<std::string> args = {"at", "rev:5"};
    args.insert(args.end(), c.words.begin(), c.words.end());
    const AtOptions o = parsed_options<AtOptions>(args);
    EXPECT_EQ(o.object, c.object) << c.words[0];
    EXPECT_EQ(o.when.revision, 5u);
    EXPECT_EQ(o.source, JournalSource{});
  }
}

TEST(AtFlags, output_defaults_to_table_on_a_terminal_except_for_unit_debug_and_metrics) {
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "queues"}, terminal()).output, AtOutput::table);
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "queues"}).output, AtOutput::json);
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "unit", "a/b"}, terminal()).output, AtOutput::json);
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "debug", "queue"}, terminal()).output, AtOutput::json);
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "metrics"}, terminal()).output, AtOutput::prometheus_text);
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "queues", "-o", "yaml"}).output, AtOutput::yaml);
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "queues", "-o=table"}).output, AtOutput::table);
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "queues", "--output", "json"}, terminal()).output,
            AtOutput::json);
}

TEST(AtFlags, output_errors) {
  EXPECT_EQ(usage_error_line({"at", "rev:1", "unit", "a/b", "-o", "table"}),
            "koordq at: -o table is not available for unit and debug views: use -o json or -o yaml; see 'koordq at "
            "--help'");
  EXPECT_EQ(usage_error_line({"at", "rev:1", "metrics", "-o", "json"}),
            "koordq at: metrics takes no -o: it always prints the Prometheus text format; see 'koordq at --help'");
  EXPECT_EQ(usage_error_line({"at", "rev:1", "queues", "-o", "xml"}),
            "koordq at: invalid value \"xml\" for -o: must be json, yaml or table; see 'koordq at --help'");
}

TEST(AtFlags, phase_limit_and_offset_behave_as_the_query_parameters) {
  const AtOptions o = parsed_options<AtOptions>(
      {"at", "rev:1", "queue", "a", "--phase", "Enqueued,Running", "--limit=10", "--offset", "20"});
  EXPECT_EQ(o.phases, (std::vector<std::string>{"Enqueued", "Running"}));
  EXPECT_EQ(o.limit, 10);
  EXPECT_EQ(o.offset, 20);
  const AtOptions defaults = parsed_options<AtOptions>({"at", "rev:1", "quotas"});
  EXPECT_TRUE(defaults.phases.empty());
  EXPECT_EQ(defaults.limit, 1000);
  EXPECT_EQ(defaults.offset, 0);
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "quota", "a", "--limit", "10000"}).limit, 10000);

  EXPECT_EQ(usage_error_line({"at", "rev:1", "queue", "a", "--phase", "Running,Foo"}),
            "koordq at: invalid value \"Running,Foo\" for parameter phase: unknown phase \"Foo\"");
  EXPECT_EQ(usage_error_line({"at", "rev:1", "queue", "a", "--phase="}),
            "koordq at: invalid value \"\" for parameter phase: unknown phase \"\"");
  for (const char* limit : {"0", "10001", "x", "-1"}) {
    EXPECT_EQ(usage_error_line({"at", "rev:1", "queue", "a", "--limit", limit}),
              "koordq at: invalid value \"" + std::string(limit) +
                  "\" for parameter limit: must be an integer between 1 and 10000");
  }
  EXPECT_EQ(usage_error_line({"at", "rev:1", "queues", "--offset", "-1"}),
            "koordq at: invalid value \"-1\" for parameter offset: must be an integer >= 0");
  EXPECT_EQ(usage_error_line({"at", "rev:1", "queues", "--phase", "Running"}),
            "koordq at: --phase applies only to queue NAME and quota NAME; see 'koordq at --help'");
  EXPECT_EQ(usage_error_line({"at", "rev:1", "metrics", "--limit", "3"}),
            "koordq at: --limit applies only to queues, quotas, queue NAME and quota NAME; see 'koordq at --help'");
}

TEST(AtFlags, when_and_object_errors) {
  EXPECT_EQ(usage_error_line({"at"}), "koordq at: missing WHEN and OBJECT; see 'koordq at --help'");
  EXPECT_EQ(usage_error_line({"at", "rev:1"}), "koordq at: missing OBJECT after WHEN; see 'koordq at --help'");
  EXPECT_EQ(usage_error_line({"at", "rev:0", "queues"}),
            "koordq at: invalid value \"rev:0\" for WHEN: must be rev:N with N an integer >= 1; see 'koordq at "
            "--help'");
  EXPECT_EQ(usage_error_line({"at", "rev:1", "nodes"}),
            "koordq at: invalid value \"nodes\" for OBJECT: must be queues, queue NAME, quotas, quota NAME, unit "
            "NS/NAME, metrics, or debug elasticquota|queue|userquota; see 'koordq at --help'");
  EXPECT_EQ(usage_error_line({"at", "rev:1", "unit", "job"}),
            "koordq at: invalid value \"job\" for NS/NAME: must be <namespace>/<name>; see 'koordq at --help'");
  EXPECT_EQ(usage_error_line({"at", "rev:1", "queues", "extra"}),
            "koordq at: unexpected argument \"extra\" after OBJECT; see 'koordq at --help'");
}

TEST(OfflineFlags, export_replaces_the_journal_and_excludes_journal_dir) {
  EXPECT_EQ(parsed_options<AtOptions>({"at", "rev:1", "queues", "--export", "-"}).source,
            source_of(JournalSource::Kind::export_file, "-"));
  EXPECT_EQ(parsed_options<ReplayOptions>({"replay", "--journal-dir", "/j"}).source,
            source_of(JournalSource::Kind::journal_dir, "/j"));
  EXPECT_EQ(usage_error_line({"explain", "a/b", "--export", "x", "--journal-dir", "y"}),
            "koordq explain: --export and --journal-dir exclude each other: --export reads an export file instead of "
            "a journal; see 'koordq explain --help'");
  EXPECT_EQ(usage_error_line({"journal", "stat", "--export", "x"}),
            "koordq journal stat: unknown flag --export; see 'koordq journal stat --help'");
}

TEST(OfflineFlags, archive_url_reads_the_archive_alone_or_before_a_local_journal) {
  const JournalSource alone =
      parsed_options<AtOptions>({"at", "rev:1", "queues", "--archive-url", "s3://bkt/p"}).source;
  EXPECT_EQ(alone.kind, JournalSource::Kind::archive);
  EXPECT_FALSE(alone.local);
  EXPECT_EQ(alone.archive.target.url, "s3://bkt/p");
  EXPECT_EQ(alone.archive.target.addressing, "auto");
  EXPECT_TRUE(alone.archive.cache);
  EXPECT_EQ(alone.archive.cache_dir, "");  // the XDG default, resolved when read
  EXPECT_EQ(alone.archive.cache_bytes, int64_t{2} << 30);
  EXPECT_FALSE(alone.archive.stats);

  const JournalSource joined =
      parsed_options<ReplayOptions>({"replay", "--archive-url", "s3://bkt", "--journal-dir", "/j", "--archive-cluster",
                                     "c", "--archive-journal", "u", "--archive-cache", "/c", "--archive-cache-size",
                                     "1MiB", "--archive-addressing", "path", "--archive-stats"})
          .source;
  EXPECT_EQ(joined.kind, JournalSource::Kind::archive);
  EXPECT_TRUE(joined.local);
  EXPECT_EQ(joined.path, "/j");
  EXPECT_EQ(joined.archive.target, (ArchiveTarget{"s3://bkt", "path", "c", "u"}));
  EXPECT_EQ(joined.archive.cache_dir, "/c");
  EXPECT_EQ(joined.archive.cache_bytes, 1 << 20);
  EXPECT_TRUE(joined.archive.stats);
  EXPECT_FALSE(parsed_options<ExplainOptions>({"explain", "a/b", "--archive-url", "s3://bkt", "--archive-cache", "off"})
                   .source.archive.cache);
  EXPECT_EQ(parsed_options<JournalExportOptions>({"journal", "export", "--archive-url", "s3://bkt"}).source.kind,
            JournalSource::Kind::archive);
  EXPECT_EQ(parsed_options<JournalVerifyOptions>({"journal", "verify", "--archive-url", "s3://bkt"}).source.kind,
            JournalSource::Kind::archive);
  EXPECT_EQ(parsed_options<JournalStatOptions>({"journal", "stat", "--archive-url", "s3://bkt"}).source.kind,
            JournalSource::Kind::archive);
}

TEST(OfflineFlags, archive_flag_errors_name_the_problem) {
  EXPECT_EQ(usage_error_line({"at", "rev:1", "queues", "--archive-url", "s3://bkt", "--export", "x"}),
            "koordq at: --export and --archive-url exclude each other: read the archive with --archive-url, or an "
            "export with --export; see 'koordq at --help'");
  EXPECT_EQ(usage_error_line({"replay", "--archive-journal", "u"}),
            "koordq replay: --archive-journal needs --archive-url; see 'koordq replay --help'");
  EXPECT_NE(usage_error_line({"journal", "stat", "--archive-url", "https://bkt"}).find("not an s3:// URL"),
            std::string::npos);
  EXPECT_NE(usage_error_line({"journal", "verify", "--archive-url", "s3://bkt", "--archive-cache-size", "0"}), "");
  EXPECT_EQ(usage_error_line({"journal", "verify", "--archive-url", "s3://bkt", "--witness"}),
            "koordq journal verify: the witness is checked against a journal directory alone: pass --journal-dir "
            "without --archive-url; see 'koordq journal verify --help'");
}

TEST(ExplainFlags, unit_uid_at_and_output) {
  const ExplainOptions o = parsed_options<ExplainOptions>(
      {"explain", "default/job-1", "--uid", "0c3e", "--at", "2026-04-20T10:00:00Z", "-o", "json"});
  EXPECT_EQ(o.unit, (NamespacedName{"default", "job-1"}));
  EXPECT_EQ(o.uid, "0c3e");
  ASSERT_TRUE(o.at.has_value());
  EXPECT_EQ(o.at->kind, When::Kind::time);
  EXPECT_EQ(o.output, ExplainOutput::json);
  const ExplainOptions defaults = parsed_options<ExplainOptions>({"explain", "default/job-1"});
  EXPECT_EQ(defaults.uid, std::nullopt);
  EXPECT_EQ(defaults.at, std::nullopt);
  EXPECT_EQ(defaults.output, ExplainOutput::text);
  EXPECT_EQ(usage_error_line({"explain"}),
            "koordq explain: missing NS/NAME of the QueueUnit; see 'koordq explain --help'");
  EXPECT_EQ(usage_error_line({"explain", "a/b", "-o", "table"}),
            "koordq explain: invalid value \"table\" for -o: must be text or json; see 'koordq explain --help'");
}

TEST(ReplayFlags, modes_and_their_exclusion) {
  const ReplayOptions plain = parsed_options<ReplayOptions>({"replay", "--to", "rev:9"});
  EXPECT_FALSE(plain.verify);
  EXPECT_TRUE(plain.what_if.empty());
  EXPECT_EQ(plain.to->revision, 9u);
  EXPECT_EQ(plain.output, ReplayOutput::text);
  EXPECT_TRUE(parsed_options<ReplayOptions>({"replay", "--verify", "-o", "json"}).verify);
  EXPECT_EQ(usage_error_line({"replay", "--verify", "--what-if", "oversellrate=2"}),
            "koordq replay: --verify and --what-if exclude each other: verify checks the recorded decisions, what-if "
            "makes new ones; see 'koordq replay --help'");
}

struct WhatIfCase {
  std::string argument;
  decltype(WhatIfChange::change) change;
};

// §24.3's KEY table, including the rule for where <name> ends.
const std::vector<WhatIfCase> kWhatIf = {
    {"oversellrate=1.25", OversellRateChange{1'250'000}},
    {"pod-initial-backoff-seconds=5", PodInitialBackoffChange{5}},
    {"pod-max-backoff-seconds=60", PodMaxBackoffChange{60}},
    {"queue.team-a.policy=Block", QueuePolicyChange{"team-a", "Block"}},
    {"queue.team-a.policy=", QueuePolicyChange{"team-a", ""}},
    {"queue.a.b.policy=Priority", QueuePolicyChange{"a.b", "Priority"}},
    {"queue.a.policy.policy=Round", QueuePolicyChange{"a.policy", "Round"}},
    // §2.3, §6.6: any other value is an unsupported policy, as the Queue could carry it.
    {"queue.team-a.policy=Intelligent", QueuePolicyChange{"team-a", "Intelligent"}},
    {"queue.team-a.policy=priority", QueuePolicyChange{"team-a", "priority"}},
    {"queue.team-a.policy=Lottery", QueuePolicyChange{"team-a", "Lottery"}},
    {"queue.team-a.annotation.koord-queue/max-depth=3",
     QueueAnnotationChange{"team-a", "koord-queue/max-depth", std::string("3")}},
    {"queue.team-a.annotation.koord-queue/max-depth-", QueueAnnotationChange{"team-a", "koord-queue/max-depth", {}}},
    {"queue.a.annotation.x.annotation.y=v=w", QueueAnnotationChange{"a", "x.annotation.y", std::string("v=w")}},
    {"queue.a.annotation.k=", QueueAnnotationChange{"a", "k", std::string("")}},
    {"quota.team-a.max.cpu=8", QuotaMaxChange{"team-a", "cpu", std::string("8")}},
    {"quota.team-a.max.nvidia.com/gpu=500m", QuotaMaxChange{"team-a", "nvidia.com/gpu", std::string("500m")}},
    {"quota.team-a.max.memory-", QuotaMaxChange{"team-a", "memory", {}}},
    {"quota.a.max.b.max.cpu=1", QuotaMaxChange{"a", "b.max.cpu", std::string("1")}},
};

TEST(ReplayFlags, what_if_keys_of_the_table) {
  for (const WhatIfCase& c : kWhatIf) {
    const ReplayOptions o = parsed_options<ReplayOptions>({"replay", "--what-if", c.argument});
    ASSERT_EQ(o.what_if.size(), 1u) << c.argument;
    EXPECT_TRUE(o.what_if[0].change == c.change) << c.argument;
  }
  const ReplayOptions both =
      parsed_options<ReplayOptions>({"replay", "--what-if", "oversellrate=2", "--what-if=quota.a.max.cpu-"});
  ASSERT_EQ(both.what_if.size(), 2u);
  EXPECT_EQ(both.what_if[0].key, "oversellrate");
  EXPECT_EQ(both.what_if[0].value, "2");
  EXPECT_EQ(both.what_if[1].key, "quota.a.max.cpu-");
  EXPECT_EQ(both.what_if[1].value, "");
}

TEST(ReplayFlags, what_if_errors_are_the_specified_messages) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"foo=1", "unknown what-if key \"foo\""},
      {"queue.a=Block", "unknown what-if key \"queue.a\""},
      {"queue.a.priority=3", "unknown what-if key \"queue.a.priority\""},
      {"queue..policy=Block", "unknown what-if key \"queue..policy\""},
      {"queue.a.annotation.=1", "unknown what-if key \"queue.a.annotation.\""},
      {"quota.a.min.cpu=1", "unknown what-if key \"quota.a.min.cpu\""},
      {"quota.a.max.=1", "unknown what-if key \"quota.a.max.\""},
      {"queue.a.policy-", "unknown what-if key \"queue.a.policy-\""},
      {"oversellrate-", "unknown what-if key \"oversellrate-\""},
      {"oversellrate=0", "invalid what-if value \"0\" for oversellrate"},
      {"oversellrate=abc", "invalid what-if value \"abc\" for oversellrate"},
      {"oversellrate=1.0000001", "invalid what-if value \"1.0000001\" for oversellrate"},
      {"pod-initial-backoff-seconds=0", "invalid what-if value \"0\" for pod-initial-backoff-seconds"},
      {"pod-max-backoff-seconds=x", "invalid what-if value \"x\" for pod-max-backoff-seconds"},
      {"quota.a.max.cpu=lots", "invalid what-if value \"lots\" for quota.a.max.cpu"},
      {"quota.a.max.cpu=", "invalid what-if value \"\" for quota.a.max.cpu"},
  };
  for (const auto& [argument, message] : cases) {
    EXPECT_EQ(usage_error_line({"replay", "--what-if", argument}), "koordq replay: " + message) << argument;
  }
}

TEST(ReplayFlags, a_key_without_its_value_is_an_invalid_value_and_an_unknown_one_stays_unknown) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"oversellrate", "invalid what-if value \"\" for oversellrate"},
      {"pod-max-backoff-seconds", "invalid what-if value \"\" for pod-max-backoff-seconds"},
      {"queue.a.policy", "invalid what-if value \"\" for queue.a.policy"},
      {"queue.a.annotation.k", "invalid what-if value \"\" for queue.a.annotation.k"},
      {"quota.a.max.cpu", "invalid what-if value \"\" for quota.a.max.cpu"},
      {"nope", "unknown what-if key \"nope\""},
      {"queue.a.priority", "unknown what-if key \"queue.a.priority\""},
  };
  for (const auto& [argument, message] : cases) {
    EXPECT_EQ(usage_error_line({"replay", "--what-if", argument}), "koordq replay: " + message) << argument;
  }
}

TEST(ReplayFlags, the_maximum_backoff_is_not_below_the_initial_one) {
  // Both changed: checked with the arguments, the later change of a key winning.
  EXPECT_EQ(usage_error_line(
                {"replay", "--what-if", "pod-initial-backoff-seconds=10", "--what-if", "pod-max-backoff-seconds=5"}),
            "koordq replay: invalid what-if value \"5\" for pod-max-backoff-seconds");
  EXPECT_EQ(usage_error_line(
                {"replay", "--what-if", "pod-max-backoff-seconds=5", "--what-if", "pod-initial-backoff-seconds=10"}),
            "koordq replay: invalid what-if value \"5\" for pod-max-backoff-seconds");
  EXPECT_EQ(parsed_options<ReplayOptions>(
                {"replay", "--what-if", "pod-initial-backoff-seconds=5", "--what-if", "pod-max-backoff-seconds=5"})
                .what_if.size(),
            2u);
  EXPECT_EQ(parsed_options<ReplayOptions>({"replay", "--what-if", "pod-max-backoff-seconds=1", "--what-if",
                                           "pod-initial-backoff-seconds=9", "--what-if", "pod-max-backoff-seconds=9"})
                .what_if.size(),
            3u);
  EXPECT_EQ(usage_error_line({"replay", "--what-if", "pod-max-backoff-seconds=99999999999"}),
            "koordq replay: invalid what-if value \"99999999999\" for pod-max-backoff-seconds");

  // One changed: checked against the journal's settings (nanoseconds) for the other.
  const auto changes = [](const std::vector<std::string>& arguments) {
    std::vector<WhatIfChange> out;
    for (const auto& a : arguments) out.push_back(parse_what_if(a).value());
    return out;
  };
  constexpr int64_t kSec = 1'000'000'000;
  EXPECT_TRUE(check_backoff_order(changes({"pod-max-backoff-seconds=2"}), 1 * kSec, 20 * kSec).ok());
  EXPECT_TRUE(check_backoff_order(changes({"pod-max-backoff-seconds=2"}), 2 * kSec, 20 * kSec).ok());
  EXPECT_EQ(check_backoff_order(changes({"pod-max-backoff-seconds=2"}), 3 * kSec, 20 * kSec).message(),
            "invalid what-if value \"2\" for pod-max-backoff-seconds");
  EXPECT_EQ(check_backoff_order(changes({"pod-initial-backoff-seconds=30"}), 1 * kSec, 20 * kSec).message(),
            "invalid what-if value \"30\" for pod-initial-backoff-seconds");
  // Both changed: the maximum is named, whatever the journal has.
  EXPECT_EQ(
      check_backoff_order(changes({"pod-initial-backoff-seconds=3", "pod-max-backoff-seconds=2"}), 1 * kSec, 20 * kSec)
          .message(),
      "invalid what-if value \"2\" for pod-max-backoff-seconds");
  // Without a backoff change the journal's own settings are not a what-if value.
  EXPECT_TRUE(check_backoff_order(changes({"oversellrate=2"}), 30 * kSec, 20 * kSec).ok());
}

TEST(JournalFlags, import_export_verify_stat) {
  const JournalImportOptions import = parsed_options<JournalImportOptions>({"journal", "import", "-"});
  EXPECT_EQ(import.input, "-");
  EXPECT_EQ(import.journal_dir, "/var/lib/koordq/journal");
  EXPECT_EQ(usage_error_line({"journal", "import"}),
            "koordq journal import: missing FILE (- reads stdin); see 'koordq journal import --help'");

  const JournalExportOptions defaults = parsed_options<JournalExportOptions>({"journal", "export"});
  EXPECT_EQ(defaults.output, "-");
  EXPECT_EQ(defaults.format, ExportFormat::ndjson);
  const JournalExportOptions ranged = parsed_options<JournalExportOptions>(
      {"journal", "export", "--format=audit", "--from", "rev:10", "--to", "2026-04-20T10:00:00Z", "out.ndjson"});
  EXPECT_EQ(ranged.format, ExportFormat::audit);
  EXPECT_EQ(ranged.from->revision, 10u);
  EXPECT_EQ(ranged.to->kind, When::Kind::time);
  EXPECT_EQ(ranged.output, "out.ndjson");
  EXPECT_EQ(usage_error_line({"journal", "export", "--format", "csv"}),
            "koordq journal export: invalid value \"csv\" for --format: must be ndjson or audit; see 'koordq journal "
            "export --help'");

  EXPECT_EQ(parsed_options<JournalVerifyOptions>({"journal", "verify", "--export", "e.ndjson"}).source,
            source_of(JournalSource::Kind::export_file, "e.ndjson"));
  EXPECT_EQ(parsed_options<JournalStatOptions>({"journal", "stat", "-o", "json"}).output, StatOutput::json);
}

TEST(JournalFlags, checkpoint_directory_must_not_exist) {
  const std::filesystem::path existing = std::filesystem::temp_directory_path();
  EXPECT_EQ(usage_error_line({"journal", "checkpoint", existing.string()}),
            "koordq journal checkpoint: checkpoint directory " + existing.string() +
                " already exists; pass a path that does not exist yet; see 'koordq journal checkpoint --help'");
  const std::string fresh = (existing / "koordq-checkpoint-test-does-not-exist").string();
  EXPECT_EQ(parsed_options<JournalCheckpointOptions>({"journal", "checkpoint", fresh}).target_dir, fresh);
  EXPECT_EQ(usage_error_line({"journal", "checkpoint"}),
            "koordq journal checkpoint: missing DIR, the directory to create; see 'koordq journal checkpoint --help'");
}

TEST(JournalKeygenFlags, both_key_files_are_required_and_never_overwritten) {
  EXPECT_EQ(usage_error_line({"journal", "keygen", "--public-key", "/nonexistent/k.pub"}),
            "koordq journal keygen: missing --private-key FILE, where to write the private key; see 'koordq journal "
            "keygen --help'");
  const std::string existing = std::filesystem::temp_directory_path().string();
  EXPECT_EQ(usage_error_line({"journal", "keygen", "--private-key", existing, "--public-key", "/nonexistent/k.pub"}),
            "koordq journal keygen: " + existing +
                " already exists; name a file that does not (keys are never overwritten); see 'koordq journal keygen "
                "--help'");
  const auto o = parsed_options<JournalKeygenOptions>(
      {"journal", "keygen", "--private-key", "/nonexistent/k.pem", "--public-key", "/nonexistent/k.pub"});
  EXPECT_EQ(o.private_key_file, "/nonexistent/k.pem");
  EXPECT_EQ(o.public_key_file, "/nonexistent/k.pub");
  EXPECT_EQ(parsed_options<JournalVerifyOptions>({"journal", "verify", "--public-key", "k.pub"}).public_key_file,
            "k.pub");
}

TEST(CommandLine, journal_verify_reads_the_witness_flags) {
  const auto through_api = parsed_options<JournalVerifyOptions>(
      {"journal", "verify", "--witness", "--witness-configmap", "ops/witness", "--kubeconfig", "k.yaml"});
  EXPECT_TRUE(through_api.witness);
  EXPECT_EQ(through_api.witness_namespace, "ops");
  EXPECT_EQ(through_api.witness_name, "witness");
  EXPECT_EQ(through_api.kubeconfig, "k.yaml");
  const auto defaults = parsed_options<JournalVerifyOptions>({"journal", "verify", "--witness"});
  EXPECT_EQ(defaults.witness_namespace + "/" + defaults.witness_name, "koord-queue/koordq-journal-witness");
  EXPECT_EQ(parsed_options<JournalVerifyOptions>({"journal", "verify", "--witness-file", "w.json"}).witness_file,
            "w.json");
  EXPECT_EQ(usage_error_line({"journal", "verify", "--witness", "--witness-file", "w.json"}),
            "koordq journal verify: --witness reads the witness through the API server and --witness-file from a "
            "file: pass one of them; see 'koordq journal verify --help'");
  EXPECT_EQ(usage_error_line({"journal", "verify", "--export", "e.ndjson", "--witness"}),
            "koordq journal verify: the witness is checked against a journal directory, not an export: pass "
            "--journal-dir instead of --export; see 'koordq journal verify --help'");
  EXPECT_EQ(usage_error_line({"journal", "verify", "--witness-configmap", "ops/witness"}),
            "koordq journal verify: --witness-configmap requires --witness; see 'koordq journal verify --help'");
  EXPECT_NE(usage_error_line({"journal", "verify", "--witness", "--witness-configmap", "witness"})
                .find("invalid value \"witness\" for --witness-configmap: must be NAMESPACE/NAME of a ConfigMap"),
            std::string::npos);
}

TEST(CommandLine, unknown_commands_and_missing_commands_are_usage_errors) {
  EXPECT_EQ(
      usage_error_line({}),
      "koordq: missing command: one of serve, replay, at, explain, console, journal, archive, version; see 'koordq "
      "--help'");
  EXPECT_EQ(usage_error_line({"serv"}), "koordq: unknown command \"serv\"; see 'koordq --help'");
  EXPECT_EQ(usage_error_line({"--verbose", "serve"}), "koordq: unknown flag --verbose; see 'koordq --help'");
  EXPECT_EQ(usage_error_line({"journal"}),
            "koordq journal: missing command: one of import, export, verify, stat, checkpoint, keygen; see 'koordq "
            "journal --help'");
  EXPECT_EQ(usage_error_line({"journal", "compact"}),
            "koordq journal: unknown command \"compact\"; see 'koordq journal --help'");
  EXPECT_EQ(usage_error_line({"archive"}),
            "koordq archive: missing command: one of ls, verify, export; see 'koordq archive --help'");
  EXPECT_EQ(usage_error_line({"archive", "ls"}),
            "koordq archive ls: --archive-url is required; see 'koordq archive ls --help'");
  EXPECT_EQ(usage_error_line({"archive", "verify", "--archive-url", "https://bucket"}),
            "koordq archive verify: invalid value \"https://bucket\" for --archive-url: not an s3:// URL; give "
            "s3://BUCKET or s3://BUCKET/PREFIX; see 'koordq archive verify --help'");
  EXPECT_EQ(
      usage_error_line({"archive", "export", "--archive-url", "s3://bucket/p", "--from-seq", "9", "--to-seq", "3"}),
      "koordq archive export: --to-seq is before --from-seq; see 'koordq archive export --help'");
  EXPECT_EQ(usage_error_line({"serve", "--archive-url", "s3://Bad_Bucket"})
                .rfind("koordq serve: invalid value \"s3://Bad_Bucket\" for --archive-url: ", 0),
            0u);
}

TEST(CommandLine, every_command_has_help) {
  for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{{},
                                                                                       {"serve"},
                                                                                       {"replay"},
                                                                                       {"at"},
                                                                                       {"explain"},
                                                                                       {"console"},
                                                                                       {"journal"},
                                                                                       {"journal", "import"},
                                                                                       {"journal", "export"},
                                                                                       {"journal", "verify"},
                                                                                       {"journal", "stat"},
                                                                                       {"journal", "checkpoint"},
                                                                                       {"archive"},
                                                                                       {"archive", "ls"},
                                                                                       {"archive", "verify"},
                                                                                       {"archive", "export"},
                                                                                       {"version"}}) {
    std::vector<std::string> args = command;
    args.push_back("--help");
    auto parsed = parse_command_line(args, {});
    const auto& exit = std::get<CommandLineExit>(parsed);
    EXPECT_EQ(exit.exit_code, kExitSuccess);
    EXPECT_NE(exit.out.find("Usage:\n  koordq"), std::string::npos) << exit.out;
    EXPECT_NE(exit.out.find("-h, --help"), std::string::npos);
  }
}

TEST(CommandLine, version_takes_no_arguments) {
  EXPECT_TRUE(std::holds_alternative<VersionOptions>(std::get<CommandOptions>(parse_command_line({"version"}, {}))));
  EXPECT_EQ(usage_error_line({"version", "now"}),
            "koordq version: unexpected argument \"now\"; see 'koordq version --help'");
  const std::string line = version_line();
  EXPECT_TRUE(line.starts_with("koordq 0.1.0 (")) << line;
  const std::string revision = line.substr(14, line.size() - 15);
  EXPECT_TRUE(revision == "unknown" ||
              (revision.size() == 40 && revision.find_first_not_of("0123456789abcdef") == std::string::npos))
      << revision;
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::cmd
