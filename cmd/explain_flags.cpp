#include "cmd/explain_flags.hpp"

#include "cmd/command_names.hpp"
#include "cmd/flag_reader.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {
namespace {}  // namespace

const CommandSpec& explain_command_spec() {
  static const CommandSpec spec{
      .path = "explain",
      .summary = "print the history of one QueueUnit: every input, decision and reason",
      .description =
          "Prints the history of one QueueUnit from the journal (or an export): every record that touched it (its "
          "watch records, the decisions about it and their outcomes), each decision with its reason text, and for "
          "every attempt the values the quota check saw on each level of the quota path. Without --uid it explains "
          "the latest UID that carried NS/NAME and lists the others. With --archive-url it reads the journal archive "
          "in S3 (alone, or before the local journal of --journal-dir), only the segments up to --at.",
      .usage = {"koordq explain NS/NAME [flags]",
                "koordq explain NS/NAME --archive-url s3://BUCKET[/PREFIX] [--journal-dir DIR] [flags]"},
      .arguments = {{"NS/NAME", "namespace and name of the QueueUnit"}},
      .flag_groups =
          {
              {"Flags",
               {
                   kJournalDirFlag,
                   kExportFlag,
                   {"--uid", "", "UID", "the latest", "which of the UIDs that carried NS/NAME to explain"},
                   {"--at", "", "WHEN", "the newest record",
                    "end the history at WHEN: an RFC3339 time or rev:N (N >= 1)"},
                   {"-o", "--output", "FORMAT", "text", "text or json"},
               }},
              archive_read_flag_group(),
          },
      .subcommands = {},
      .sections = {},
      .exit_codes = offline_exit_codes("1  no QueueUnit with that name (queueunit \"<ns>/<name>\" not found)"),
  };
  return spec;
}

Result<ExplainOptions> read_explain_options(const ParsedFlags& flags, const CommandEnvironment&) {
  const std::vector<std::string>& words = flags.positionals();
  if (words.empty()) return usage_error(kExplainCommand, "missing NS/NAME of the QueueUnit");
  if (words.size() > 1) return usage_error(kExplainCommand, "unexpected argument \"" + words[1] + "\" after NS/NAME");

  ExplainOptions o;
  Result<NamespacedName> unit = parse_namespaced_name(words[0]);
  if (!unit.ok()) return invalid_value(kExplainCommand, "NS/NAME", words[0], unit.message());
  o.unit = std::move(unit).value();

  FlagReader reader(kExplainCommand, flags);
  read_journal_source(reader, o.source);
  if (flags.given("--uid")) {
    std::string uid;
    reader.non_empty_text("--uid", uid);
    o.uid = std::move(uid);
  }
  reader.when("--at", o.at);
  reader.choice("-o", o.output, {{"text", ExplainOutput::text}, {"json", ExplainOutput::json}});
  if (!reader.ok()) return reader.error();
  return o;
}

}  // namespace koordq::cmd
