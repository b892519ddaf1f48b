#include "cmd/replay_flags.hpp"

#include "cmd/command_names.hpp"
#include "cmd/flag_reader.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {
namespace {}  // namespace

const CommandSpec& replay_command_spec() {
  static const CommandSpec spec{
      .path = "replay",
      .summary = "replay the journal: rebuild the state, verify the recorded decisions, or ask what-if",
      .description =
          "Replays the journal (or an export) from its start to WHEN through the same apply and decide code as "
          "serve. Plain, it prints the rebuilt state's size. With --verify it re-runs every recorded decide round "
          "on the state at its basis and compares the decisions with the recorded ones, and compares every stored "
          "snapshot (what a restarted serve resumes from) with the replayed state at its seq, field by field; it "
          "stops at the first divergence. With --what-if it re-decides over the recorded inputs under changed "
          "settings and lists the units whose admission time changes. With --archive-url it reads the journal "
          "archive in S3 (alone, or before the local journal of --journal-dir), only the segments up to WHEN.",
      .usage = {"koordq replay [--to WHEN] [--verify | --what-if KEY=VALUE ...] [flags]",
                "koordq replay --archive-url s3://BUCKET[/PREFIX] [--journal-dir DIR] [--to WHEN] [flags]"},
      .arguments = {},
      .flag_groups =
          {
              {"Flags",
               {
                   kJournalDirFlag,
                   kExportFlag,
                   {"--to", "", "WHEN", "the newest record", "replay up to WHEN: an RFC3339 time or rev:N (N >= 1)"},
                   {"--verify", "", "", "false",
                    "compare every recorded decision with a re-run of its round and every snapshot with the replayed "
                    "state; excludes --what-if"},
                   {"--what-if", "", "KEY=VALUE", "",
                    "re-decide as if the setting had held from the start; KEY- removes an annotation or a max "
                    "resource; excludes --verify",
                    true},
                   {"-o", "--output", "FORMAT", "text", "text or json"},
               }},
              archive_read_flag_group(),
          },
      .subcommands = {},
      .sections =
          {
              {"What-if keys",
               {
                   {"oversellrate=RATE", "as --oversellrate of serve"},
                   {"pod-initial-backoff-seconds=N", "as the serve flag (>= 1, <= the maximum backoff)"},
                   {"pod-max-backoff-seconds=N", "as the serve flag (>= the initial backoff)"},
                   {"queue.NAME.policy=POLICY",
                    "the Queue's spec.queuePolicy: Priority, Block, or empty (Priority); any other value (Intelligent, "
                    "FIFO, Round...) leaves the queue without a scheduling loop"},
                   {"queue.NAME.annotation.KEY=VALUE",
                    "a Queue annotation; queue.NAME.annotation.KEY- (no =) removes it"},
                   {"quota.NAME.max.RESOURCE=QUANTITY",
                    "an ElasticQuota max entry; quota.NAME.max.RESOURCE- (no =) removes it"},
                   {"", "NAME ends at the first .annotation. or .max., or before the final .policy"},
               }},
          },
      .exit_codes =
          offline_exit_codes("1  --verify found a divergence, a snapshot that differs from the replayed state, or a "
                             "decision-logic version mismatch"),
  };
  return spec;
}

Result<ReplayOptions> read_replay_options(const ParsedFlags& flags, const CommandEnvironment&) {
  if (!flags.positionals().empty()) {
    return usage_error(kReplayCommand, "unexpected argument \"" + flags.positionals().front() + "\"");
  }
  ReplayOptions o;
  FlagReader reader(kReplayCommand, flags);
  read_journal_source(reader, o.source);
  reader.when("--to", o.to);
  reader.boolean("--verify", o.verify);
  reader.choice("-o", o.output, {{"text", ReplayOutput::text}, {"json", ReplayOutput::json}});
  if (!reader.ok()) return reader.error();

  for (const std::string& argument : flags.values("--what-if")) {
    Result<WhatIfChange> change = parse_what_if(argument);
    if (!change.ok()) return usage_error_verbatim(kReplayCommand, change.message());
    o.what_if.push_back(std::move(change).value());
  }
  if (Status order = check_backoff_order(o.what_if); !order.ok()) {
    return usage_error_verbatim(kReplayCommand, order.message());
  }
  if (o.verify && !o.what_if.empty()) {
    return usage_error(kReplayCommand,
                       "--verify and --what-if exclude each other: verify checks the recorded decisions, "
                       "what-if makes new ones");
  }
  return o;
}

}  // namespace koordq::cmd
