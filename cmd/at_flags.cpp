#include "cmd/at_flags.hpp"

#include <algorithm>

#include "api/read_params.hpp"
#include "cmd/command_names.hpp"
#include "cmd/flag_reader.hpp"
#include "cmd/object_names.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {
namespace {

// behaviour.md §5.1: the effective phases (`""` shows as Enqueued).
constexpr std::string_view kEffectivePhases[] = {"Enqueued",     "Reserved",   "Dequeued",       "Running",
                                                 "Succeed",      "Failed",     "TimeoutBackoff", "SchedReady",
                                                 "SchedSucceed", "SchedFailed"};

constexpr std::string_view kObjectForms =
    "must be queues, queue NAME, quotas, quota NAME, unit NS/NAME, metrics, or debug elasticquota|queue|userquota";

bool takes_phase(AtObject::Kind kind) {
  return kind == AtObject::Kind::queue || kind == AtObject::Kind::quota;
}

bool takes_paging(AtObject::Kind kind) {
  return kind == AtObject::Kind::queues || kind == AtObject::Kind::quotas || takes_phase(kind);
}

bool has_table(AtObject::Kind kind) {
  return takes_paging(kind);
}

// OBJECT is one to two words; returns how many positionals it used.
Result<size_t> read_object(const std::vector<std::string>& words, size_t first, AtObject& out) {
  const std::string& word = words[first];
  const bool has_next = first + 1 < words.size();
  using Kind = AtObject::Kind;
  if (word == "queues" || word == "quotas" || word == "metrics") {
    out.kind = word == "queues" ? Kind::queues : word == "quotas" ? Kind::quotas : Kind::metrics;
    return size_t{1};
  }
  if (word == "queue" || word == "quota") {
    out.kind = word == "queue" ? Kind::queue : Kind::quota;
    if (!has_next) return usage_error(kAtCommand, "missing NAME: " + word + " NAME names the " + word);
    if (!is_object_name(words[first + 1])) {
      return invalid_value(kAtCommand, "NAME", words[first + 1],
                           "must be a Kubernetes object name (lowercase letters, digits, '-' and '.')");
    }
    out.name = words[first + 1];
    return size_t{2};
  }
  if (word == "unit") {
    out.kind = Kind::unit;
    if (!has_next) return usage_error(kAtCommand, "missing NS/NAME: unit NS/NAME names the QueueUnit");
    Result<NamespacedName> unit = parse_namespaced_name(words[first + 1]);
    if (!unit.ok()) return invalid_value(kAtCommand, "NS/NAME", words[first + 1], unit.message());
    out.namespace_name = unit->namespace_name;
    out.name = unit->name;
    return size_t{2};
  }
  if (word == "debug") {
    if (!has_next) return usage_error(kAtCommand, "missing the debug view: debug elasticquota|queue|userquota");
    const std::string& view = words[first + 1];
    if (view == "elasticquota") {
      out.kind = Kind::debug_elasticquota;
    } else if (view == "queue") {
      out.kind = Kind::debug_queue;
    } else if (view == "userquota") {
      out.kind = Kind::debug_userquota;
    } else {
      return invalid_value(kAtCommand, "debug view", view, "must be elasticquota, queue or userquota");
    }
    return size_t{2};
  }
  return invalid_value(kAtCommand, "OBJECT", word, kObjectForms);
}

// §16.4's messages, word for word; the integers are read as the API reads them (api::parse_count).
Status read_phases(const std::string& value, std::vector<std::string>& out) {
  size_t start = 0;
  while (true) {
    const size_t comma = value.find(',', start);
    const std::string phase = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (std::find(std::begin(kEffectivePhases), std::end(kEffectivePhases), phase) == std::end(kEffectivePhases)) {
      return usage_error_verbatim(
          kAtCommand, "invalid value \"" + value + "\" for parameter phase: unknown phase \"" + phase + "\"");
    }
    out.push_back(phase);
    if (comma == std::string::npos) return ok_status();
    start = comma + 1;
  }
}

Status read_paging(const ParsedFlags& flags, AtOptions& o) {
  if (auto limit = flags.value("--limit")) {
    const std::optional<int64_t> parsed = api::parse_count(*limit);
    if (!parsed || *parsed < 1 || *parsed > 10000) {
      return usage_error_verbatim(
          kAtCommand, "invalid value \"" + *limit + "\" for parameter limit: must be an integer between 1 and 10000");
    }
    o.limit = *parsed;
  }
  if (auto offset = flags.value("--offset")) {
    const std::optional<int64_t> parsed = api::parse_count(*offset);
    if (!parsed) {
      return usage_error_verbatim(kAtCommand,
                                  "invalid value \"" + *offset + "\" for parameter offset: must be an integer >= 0");
    }
    o.offset = *parsed;
  }
  return ok_status();
}

Status read_output(const ParsedFlags& flags, const CommandEnvironment& env, AtOptions& o) {
  const AtObject::Kind kind = o.object.kind;
  if (kind == AtObject::Kind::metrics) {
    if (flags.given("-o")) {
      return usage_error(kAtCommand, "metrics takes no -o: it always prints the Prometheus text format");
    }
    o.output = AtOutput::prometheus_text;
    return ok_status();
  }
  o.output = has_table(kind) && env.stdout_is_terminal ? AtOutput::table : AtOutput::json;
  FlagReader reader(kAtCommand, flags);
  reader.choice("-o", o.output, {{"json", AtOutput::json}, {"yaml", AtOutput::yaml}, {"table", AtOutput::table}});
  if (!reader.ok()) return reader.error();
  if (o.output == AtOutput::table && !has_table(kind)) {
    return usage_error(kAtCommand, "-o table is not available for unit and debug views: use -o json or -o yaml");
  }
  return ok_status();
}

}  // namespace

const CommandSpec& at_command_spec() {
  static const CommandSpec spec{
      .path = "at",
      .summary = "show a queue, quota, unit, metrics or debug view as it was at a time or revision",
      .description =
          "Prints what a read surface of koordq would have answered at WHEN, rebuilt from the journal (or an "
          "export) without any cluster: the visibility API's queue and quota lists and summaries, one QueueUnit "
          "with its full status, the metrics rebuilt from the journal, or a debug API view. -o json prints exactly "
          "the body the live endpoint would serve at that revision. It works while serve writes the same journal. "
          "With --archive-url it reads the journal archive in S3 (alone, or before the local journal of "
          "--journal-dir), starting from the newest archived snapshot before WHEN and fetching only the segments "
          "from there.",
      .usage = {"koordq at WHEN OBJECT [flags]",
                "koordq at WHEN OBJECT --archive-url s3://BUCKET[/PREFIX] [--journal-dir DIR] [flags]"},
      .arguments =
          {
              {"WHEN",
               "an RFC3339 time not in the future (2026-04-20T10:00:00.250+02:00): the state after the last record "
               "at or before it, the latest state after the newest record; or rev:N (N >= 1): the state after "
               "record N"},
              {"OBJECT", "what to show, below"},
          },
      .flag_groups =
          {
              {"Flags",
               {
                   kJournalDirFlag,
                   kExportFlag,
                   {"-o", "--output", "FORMAT", "table on a terminal, else json; json for unit and debug",
                    "json (the live body), yaml (the same document) or table; unit and debug have no table; metrics "
                    "takes no -o"},
                   {"--phase", "", "PHASES", "all",
                    "comma-separated effective phases to keep, e.g. Enqueued,Running (queue and quota only)"},
                   {"--limit", "", "N", "1000",
                    "at most this many items, 1 to 10000 (queues, quotas, queue and quota only)"},
                   {"--offset", "", "N", "0",
                    "skip this many items after filtering and ordering (queues, quotas, queue and quota only)"},
               }},
              archive_read_flag_group(),
          },
      .subcommands = {},
      .sections =
          {
              {"Objects",
               {
                   {"queues", "every Queue (QueueList, as GET .../v1alpha1/queues)"},
                   {"queue NAME",
                    "the units of one Queue (QueueUnitsSummary, as .../queues/NAME/queueunits): its waiting and "
                    "assumed units; with --phase every unit mapped to it"},
                   {"quotas", "every ElasticQuota (ElasticQuotaList)"},
                   {"quota NAME",
                    "every unit whose quota name is NAME (QueueUnitsSummary, as .../elasticquotas/NAME/queueunits)"},
                   {"unit NS/NAME", "one QueueUnit's summary item followed by its full status"},
                   {"metrics",
                    "the Prometheus text of the queueing families, job_scheduling_e2e_latency and "
                    "koordq_admission_wait_seconds as the leader served them; process-local families are left out"},
                   {"debug elasticquota", "the debug API body of GET /apis/v1/elasticquota"},
                   {"debug queue", "the debug API body of GET /apis/v1/queue"},
                   {"debug userquota", "the debug API body of GET /apis/v1/userquota"},
               }},
          },
      .exit_codes = offline_exit_codes("1  the queue, quota or unit does not exist at WHEN"),
  };
  return spec;
}

Result<AtOptions> read_at_options(const ParsedFlags& flags, const CommandEnvironment& env) {
  const std::vector<std::string>& words = flags.positionals();
  if (words.empty()) return usage_error(kAtCommand, "missing WHEN and OBJECT");
  if (words.size() == 1) return usage_error(kAtCommand, "missing OBJECT after WHEN");

  AtOptions o;
  Result<When> when = parse_when(words[0]);
  if (!when.ok()) return invalid_value(kAtCommand, "WHEN", words[0], when.message());
  o.when = std::move(when).value();

  const Result<size_t> used = read_object(words, 1, o.object);
  if (!used.ok()) return used.error();
  if (1 + *used < words.size()) {
    return usage_error(kAtCommand, "unexpected argument \"" + words[1 + *used] + "\" after OBJECT");
  }

  FlagReader reader(kAtCommand, flags);
  read_journal_source(reader, o.source);
  if (!reader.ok()) return reader.error();

  if (Status output = read_output(flags, env, o); !output.ok()) return output.error();
  if (auto phase = flags.value("--phase")) {
    if (!takes_phase(o.object.kind))
      return usage_error(kAtCommand, "--phase applies only to queue NAME and quota NAME");
    if (Status phases = read_phases(*phase, o.phases); !phases.ok()) return phases.error();
  }
  for (std::string_view paging : {"--limit", "--offset"}) {
    if (flags.given(paging) && !takes_paging(o.object.kind)) {
      return usage_error(kAtCommand,
                         std::string(paging) + " applies only to queues, quotas, queue NAME and quota NAME");
    }
  }
  if (Status paging = read_paging(flags, o); !paging.ok()) return paging.error();
  return o;
}

}  // namespace koordq::cmd
