#include "cmd/journal_flags.hpp"

#include <filesystem>
#include <system_error>

#include "cmd/flag_reader.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {
namespace {

// At most `max` positionals; returns a usage error naming the first extra one.
Status at_most_positionals(std::string_view command, const ParsedFlags& flags, size_t max) {
  if (flags.positionals().size() <= max) return ok_status();
  return usage_error(command, "unexpected argument \"" + flags.positionals()[max] + "\"");
}

}  // namespace

const CommandSpec& journal_command_spec() {
  static const CommandSpec spec{
      .path = "journal",
      .summary = "import, export, verify, summarise or copy the journal",
      .description =
          "Works on the journal without any cluster: imports recorded watch streams, exports the records as NDJSON "
          "or audit events, verifies that the sequence is dense and the hash chain intact, summarises it, and "
          "makes consistent copies. Reading commands work while serve writes the same journal.",
      .usage = {"koordq journal <command> [flags]"},
      .arguments = {},
      .flag_groups = {},
      .subcommands =
          {
              subcommand_summary(journal_import_command_spec()),
              subcommand_summary(journal_export_command_spec()),
              subcommand_summary(journal_verify_command_spec()),
              subcommand_summary(journal_stat_command_spec()),
              subcommand_summary(journal_checkpoint_command_spec()),
          },
      .sections = {},
      .exit_codes = {},
  };
  return spec;
}

const CommandSpec& journal_import_command_spec() {
  static const CommandSpec spec{
      .path = "journal import",
      .summary = "append watch records read from a file or stdin",
      .description =
          "Appends watch records read from FILE or stdin: JSON values one per line or concatenated, as `kubectl get "
          "queueunits -A -w --output-watch-events -o json` prints them, each {\"type\": "
          "\"ADDED|MODIFIED|DELETED|BOOKMARK\", \"object\": {...}} with an optional \"time\" (RFC3339) used as the "
          "record's time. Objects other than QueueUnits, Queues and ElasticQuotas are skipped with a warning. The "
          "journal directory is created when missing. Prints `imported <n> records (seq <a>..<b>)`.",
      .usage = {"koordq journal import [--journal-dir DIR] FILE|-"},
      .arguments = {{"FILE|-", "the watch stream to import; - reads stdin"}},
      .flag_groups = {{"Flags", {kJournalDirFlag}}},
      .subcommands = {},
      .sections = {},
      .exit_codes =
          {
              "0  success",
              "2  usage error, or input that is not JSON or lacks type or object (the byte offset is named; the "
              "records before it stay)",
              "3  the journal is unreadable, or held by another process",
          },
  };
  return spec;
}

const CommandSpec& journal_export_command_spec() {
  static const CommandSpec spec{
      .path = "journal export",
      .summary = "write the records as NDJSON or audit.k8s.io/v1 Event lines",
      .description =
          "Writes the journal's records, all retained ones by default, as NDJSON lines (each with its canonical "
          "encoding, so that journal verify --export can check it) or as audit.k8s.io/v1 Event lines, to FILE or "
          "stdout.",
      .usage = {"koordq journal export [--journal-dir DIR] [--format ndjson|audit] [--from WHEN] [--to WHEN] "
                "[FILE|-]"},
      .arguments = {{"FILE|-", "where to write; - (the default) is stdout"}},
      .flag_groups =
          {
              {"Flags",
               {
                   kJournalDirFlag,
                   {"--format", "", "FORMAT", "ndjson", "ndjson or audit"},
                   {"--from", "", "WHEN", "the oldest record",
                    "keep records with seq >= N (rev:N) or time >= the given RFC3339 time"},
                   {"--to", "", "WHEN", "the newest record",
                    "keep records with seq <= N (rev:N) or time <= the given RFC3339 time"},
               }},
          },
      .subcommands = {},
      .sections = {},
      .exit_codes = offline_exit_codes(""),
  };
  return spec;
}

const CommandSpec& journal_verify_command_spec() {
  static const CommandSpec spec{
      .path = "journal verify",
      .summary = "check that seq is dense and the hash chain intact",
      .description =
          "Checks that the sequence numbers are dense and the SHA-256 hash chain intact; for an export, also that "
          "every line is exactly the rendering of its record. Prints `ok: <n> records, seq <a>..<b>, head <hash>`, "
          "or one line naming the first bad seq.",
      .usage = {"koordq journal verify [--journal-dir DIR | --export FILE]"},
      .arguments = {},
      .flag_groups = {{"Flags", {kJournalDirFlag, kExportFlag}}},
      .subcommands = {},
      .sections = {},
      .exit_codes = offline_exit_codes("1  tampering or a broken chain (the first bad seq is named)"),
  };
  return spec;
}

const CommandSpec& journal_stat_command_spec() {
  static const CommandSpec spec{
      .path = "journal stat",
      .summary = "summarise the journal",
      .description =
          "Summarises the journal: its UUID, record count, seq and time range, records per kind, snapshots, bytes "
          "on disk and head hash.",
      .usage = {"koordq journal stat [--journal-dir DIR] [-o text|json]"},
      .arguments = {},
      .flag_groups = {{"Flags", {kJournalDirFlag, {"-o", "--output", "FORMAT", "text", "text or json"}}}},
      .subcommands = {},
      .sections = {},
      .exit_codes = offline_exit_codes(""),
  };
  return spec;
}

const CommandSpec& journal_checkpoint_command_spec() {
  static const CommandSpec spec{
      .path = "journal checkpoint",
      .summary = "write a consistent copy of the journal into a new directory",
      .description =
          "Writes a consistent copy of the journal into DIR through a RocksDB checkpoint. It works while serve "
          "writes the journal: the running serve then makes the copy, on request over its debug listener. This is "
          "the safe way to copy a live journal; copying its files is not. Prints `checkpoint of seq <n> written to "
          "<DIR>`.",
      .usage = {"koordq journal checkpoint [--journal-dir DIR] DIR"},
      .arguments = {{"DIR", "the directory to create; it must not exist"}},
      .flag_groups = {{"Flags", {kJournalDirFlag}}},
      .subcommands = {},
      .sections = {},
      .exit_codes =
          {
              "0  success",
              "2  usage error, or DIR already exists",
              "3  the journal is unreadable or corrupt, or DIR cannot be written",
          },
  };
  return spec;
}

Result<JournalImportOptions> read_journal_import_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal import";
  if (flags.positionals().empty()) return usage_error(kCommand, "missing FILE (- reads stdin)");
  if (Status extra = at_most_positionals(kCommand, flags, 1); !extra.ok()) return extra.error();
  JournalImportOptions o;
  o.input = flags.positionals().front();
  FlagReader reader(kCommand, flags);
  reader.non_empty_text(kJournalDirFlag.name, o.journal_dir);
  if (!reader.ok()) return reader.error();
  return o;
}

Result<JournalExportOptions> read_journal_export_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal export";
  if (Status extra = at_most_positionals(kCommand, flags, 1); !extra.ok()) return extra.error();
  JournalExportOptions o;
  if (!flags.positionals().empty()) o.output = flags.positionals().front();
  FlagReader reader(kCommand, flags);
  reader.non_empty_text(kJournalDirFlag.name, o.journal_dir);
  reader.choice("--format", o.format, {{"ndjson", ExportFormat::ndjson}, {"audit", ExportFormat::audit}});
  reader.when("--from", o.from);
  reader.when("--to", o.to);
  if (!reader.ok()) return reader.error();
  return o;
}

Result<JournalVerifyOptions> read_journal_verify_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal verify";
  if (Status extra = at_most_positionals(kCommand, flags, 0); !extra.ok()) return extra.error();
  JournalVerifyOptions o;
  FlagReader reader(kCommand, flags);
  read_journal_source(reader, o.source);
  if (!reader.ok()) return reader.error();
  return o;
}

Result<JournalStatOptions> read_journal_stat_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal stat";
  if (Status extra = at_most_positionals(kCommand, flags, 0); !extra.ok()) return extra.error();
  JournalStatOptions o;
  FlagReader reader(kCommand, flags);
  reader.non_empty_text(kJournalDirFlag.name, o.journal_dir);
  reader.choice("-o", o.output, {{"text", StatOutput::text}, {"json", StatOutput::json}});
  if (!reader.ok()) return reader.error();
  return o;
}

Result<JournalCheckpointOptions> read_journal_checkpoint_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal checkpoint";
  if (flags.positionals().empty()) return usage_error(kCommand, "missing DIR, the directory to create");
  if (Status extra = at_most_positionals(kCommand, flags, 1); !extra.ok()) return extra.error();
  JournalCheckpointOptions o;
  o.target_dir = flags.positionals().front();
  FlagReader reader(kCommand, flags);
  reader.non_empty_text(kJournalDirFlag.name, o.journal_dir);
  if (!reader.ok()) return reader.error();
  if (o.target_dir.empty()) return invalid_value(kCommand, "DIR", o.target_dir, "must not be empty");
  std::error_code error;
  if (std::filesystem::exists(std::filesystem::symlink_status(o.target_dir, error))) {
    return usage_error(kCommand, "checkpoint directory " + o.target_dir +
                                     " already exists; pass a path that does "
                                     "not exist yet");
  }
  return o;
}

}  // namespace koordq::cmd
