#include "cmd/journal_flags.hpp"

#include <filesystem>
#include <system_error>

#include "base/object_name.hpp"
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
          "or audit events, verifies that the sequence is dense and the hash chain intact, summarises it, "
          "makes consistent copies, and generates the key pair that makes tampering evident. Reading commands work "
          "while serve writes the same journal.",
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
              subcommand_summary(journal_keygen_command_spec()),
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
      .usage = {"koordq journal import [--journal-dir DIR] [--journal-signing-key-file FILE] FILE|-"},
      .arguments = {{"FILE|-", "the watch stream to import; - reads stdin"}},
      .flag_groups = {{"Flags", {kJournalDirFlag, kSigningKeyFileFlag}}},
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
          "stdout. An NDJSON export ends with a trailer line naming the journal's UUID, the first seq and its "
          "prevHash, the last seq, the head hash and the record count, signed with --journal-signing-key-file when "
          "given, so that an export cut at either end, extended or (with the key) forged is refused by journal "
          "verify --export. With --archive-url the records come from the journal archive in S3 (alone, or before "
          "the local journal of --journal-dir), byte-equal to the journal's export.",
      .usage = {"koordq journal export [--journal-dir DIR] [--format ndjson|audit] [--from WHEN] [--to WHEN] "
                "[--journal-signing-key-file FILE] [FILE|-]",
                "koordq journal export --archive-url s3://BUCKET[/PREFIX] [--journal-dir DIR] [flags] [FILE|-]"},
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
                   kSigningKeyFileFlag,
               }},
              archive_read_flag_group(),
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
          "Checks that the sequence numbers are dense and the SHA-256 hash chain intact, from seq 1 or from the "
          "retention cut, that HEAD is present and agrees with the log, and that every snapshot matches its anchor "
          "in the chain; for an export, also that every line is "
          "exactly the rendering of its record and that the export ends with a trailer that names exactly the "
          "records before it. With --public-key, HEAD, the retention cut and the export trailer must carry the "
          "signature of that key, which catches a rewritten HEAD and a re-chained or forged export. Prints `ok: <n> "
          "records, seq <a>..<b>, head <hash>` (and `, signed by key <id> up to seq <s>`, with the number of "
          "records after seq <s> that no signature covers yet, also named in a warning on stderr), or one line "
          "naming the first bad seq and what is wrong there. With --archive-url it checks the journal archive in "
          "S3: every segment as archive verify does (each trailer signed, with --public-key), then the whole chain "
          "from seq 1, and with --journal-dir the local journal that continues it. With --witness (through the API "
          "server) or "
          "--witness-file, the journal is also checked against its external witness, the ConfigMap where the "
          "leader records its head every --journal-witness-period: a journal cut below a witnessed seq, with "
          "another hash at a witnessed seq, not witnessed at all (another UUID) or, with --public-key, a witness "
          "entry not signed by the key is exit 1; a second line then says up to which seq the witness agrees.",
      .usage = {"koordq journal verify [--journal-dir DIR | --export FILE] [--public-key FILE]",
                "koordq journal verify [--journal-dir DIR] [--public-key FILE] --witness [--witness-configmap "
                "NS/NAME] [--kubeconfig FILE]",
                "koordq journal verify [--journal-dir DIR] [--public-key FILE] --witness-file FILE",
                "koordq journal verify --archive-url s3://BUCKET[/PREFIX] [--journal-dir DIR] [--public-key FILE]"},
      .arguments = {},
      .flag_groups = {{"Flags",
                       {kJournalDirFlag,
                        kExportFlag,
                        {"--public-key", "", "FILE", "",
                         "the Ed25519 public key (PEM) from journal keygen; signatures are required and checked"},
                        {"--witness", "", "", "false",
                         "check the journal against its witness ConfigMap, read through the API server"},
                        {"--witness-configmap", "", "NS/NAME", "koord-queue/koordq-journal-witness",
                         "the witness ConfigMap (serve's --journal-witness-configmap in its "
                         "--leader-election-namespace)"},
                        {"--kubeconfig", "", "FILE", "",
                         "kubeconfig for --witness; default: KUBECONFIG, else the in-cluster service account"},
                        {"--witness-file", "", "FILE", "",
                         "check against the witness ConfigMap saved as `kubectl get configmap -o json` prints it"}}},
                      archive_read_flag_group()},
      .subcommands = {},
      .sections = {},
      .exit_codes =
          {
              "0  success",
              "1  tampering, a broken chain, a missing HEAD or trailer, a missing or foreign signature (the first bad "
              "seq is named), or a journal that disagrees with its witness (or has none)",
              "2  usage error: unknown command or flag, invalid value, a key file that holds no Ed25519 key",
              "3  the journal, export or witness is unreadable (or the API server cannot be reached)",
          },
  };
  return spec;
}

const CommandSpec& journal_stat_command_spec() {
  static const CommandSpec spec{
      .path = "journal stat",
      .summary = "summarise the journal",
      .description =
          "Summarises the journal: its UUID, record count, seq and time range, records per kind, snapshots, bytes "
          "on disk and head hash. With --archive-url it summarises the journal archive in S3 (alone, or with the "
          "local journal of --journal-dir that continues it); bytes are then the archived objects' and the local "
          "journal's.",
      .usage = {"koordq journal stat [--journal-dir DIR] [-o text|json]",
                "koordq journal stat --archive-url s3://BUCKET[/PREFIX] [--journal-dir DIR] [-o text|json]"},
      .arguments = {},
      .flag_groups = {{"Flags", {kJournalDirFlag, {"-o", "--output", "FORMAT", "text", "text or json"}}},
                      archive_read_flag_group()},
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

const CommandSpec& journal_keygen_command_spec() {
  static const CommandSpec spec{
      .path = "journal keygen",
      .summary = "generate the Ed25519 key pair that signs the journal",
      .description =
          "Generates an Ed25519 key pair as PEM files: the private key (mode 0600) for serve and journal export "
          "--journal-signing-key-file, the public key for journal verify --public-key. Keep the private key outside "
          "the journal directory: whoever can write both can forge history. Prints the key's id.",
      .usage = {"koordq journal keygen --private-key FILE --public-key FILE"},
      .arguments = {},
      .flag_groups = {{"Flags",
                       {{"--private-key", "", "FILE", "", "where to write the private key; must not exist"},
                        {"--public-key", "", "FILE", "", "where to write the public key; must not exist"}}}},
      .subcommands = {},
      .sections = {},
      .exit_codes =
          {
              "0  success",
              "2  usage error, or a key file that already exists",
          },
  };
  return spec;
}

Result<JournalKeygenOptions> read_journal_keygen_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal keygen";
  if (Status extra = at_most_positionals(kCommand, flags, 0); !extra.ok()) return extra.error();
  JournalKeygenOptions o;
  FlagReader reader(kCommand, flags);
  reader.non_empty_text("--private-key", o.private_key_file);
  reader.non_empty_text("--public-key", o.public_key_file);
  if (!reader.ok()) return reader.error();
  if (o.private_key_file.empty())
    return usage_error(kCommand, "missing --private-key FILE, where to write the private key");
  if (o.public_key_file.empty())
    return usage_error(kCommand, "missing --public-key FILE, where to write the public key");
  for (const std::string& file : {o.private_key_file, o.public_key_file}) {
    std::error_code error;
    if (std::filesystem::exists(std::filesystem::symlink_status(file, error))) {
      return usage_error(kCommand, file + " already exists; name a file that does not (keys are never overwritten)");
    }
  }
  return o;
}

Result<JournalImportOptions> read_journal_import_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal import";
  if (flags.positionals().empty()) return usage_error(kCommand, "missing FILE (- reads stdin)");
  if (Status extra = at_most_positionals(kCommand, flags, 1); !extra.ok()) return extra.error();
  JournalImportOptions o;
  o.input = flags.positionals().front();
  FlagReader reader(kCommand, flags);
  reader.non_empty_text(kJournalDirFlag.name, o.journal_dir);
  reader.non_empty_text(kSigningKeyFileFlag.name, o.signing_key_file);
  if (!reader.ok()) return reader.error();
  return o;
}

Result<JournalExportOptions> read_journal_export_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal export";
  if (Status extra = at_most_positionals(kCommand, flags, 1); !extra.ok()) return extra.error();
  JournalExportOptions o;
  if (!flags.positionals().empty()) o.output = flags.positionals().front();
  FlagReader reader(kCommand, flags);
  read_journal_source(reader, o.source);
  reader.choice("--format", o.format, {{"ndjson", ExportFormat::ndjson}, {"audit", ExportFormat::audit}});
  reader.when("--from", o.from);
  reader.when("--to", o.to);
  reader.non_empty_text(kSigningKeyFileFlag.name, o.signing_key_file);
  if (!reader.ok()) return reader.error();
  return o;
}

Result<JournalVerifyOptions> read_journal_verify_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal verify";
  if (Status extra = at_most_positionals(kCommand, flags, 0); !extra.ok()) return extra.error();
  JournalVerifyOptions o;
  FlagReader reader(kCommand, flags);
  read_journal_source(reader, o.source);
  reader.non_empty_text("--public-key", o.public_key_file);
  reader.boolean("--witness", o.witness);
  reader.non_empty_text("--witness-file", o.witness_file);
  reader.non_empty_text("--kubeconfig", o.kubeconfig);
  std::string configmap = o.witness_namespace + "/" + o.witness_name;
  reader.non_empty_text("--witness-configmap", configmap);
  if (!reader.ok()) return reader.error();
  const auto slash = configmap.find('/');
  if (slash == std::string::npos || !base::is_namespace_name(configmap.substr(0, slash)) ||
      !base::is_object_name(configmap.substr(slash + 1))) {
    return invalid_value(kCommand, "--witness-configmap", configmap, "must be NAMESPACE/NAME of a ConfigMap");
  }
  o.witness_namespace = configmap.substr(0, slash);
  o.witness_name = configmap.substr(slash + 1);
  const bool checks_witness = o.witness || !o.witness_file.empty();
  if (o.witness && !o.witness_file.empty()) {
    return usage_error(kCommand,
                       "--witness reads the witness through the API server and --witness-file from a "
                       "file: pass one of them");
  }
  if (checks_witness && o.source.kind == JournalSource::Kind::archive) {
    return usage_error(kCommand,
                       "the witness is checked against a journal directory alone: pass --journal-dir without "
                       "--archive-url");
  }
  if (checks_witness && o.source.kind == JournalSource::Kind::export_file) {
    return usage_error(kCommand,
                       "the witness is checked against a journal directory, not an export: pass "
                       "--journal-dir instead of --export");
  }
  for (std::string_view flag : {"--witness-configmap", "--kubeconfig"}) {
    if (flags.given(flag) && !o.witness) return usage_error(kCommand, std::string(flag) + " requires --witness");
  }
  return o;
}

Result<JournalStatOptions> read_journal_stat_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "journal stat";
  if (Status extra = at_most_positionals(kCommand, flags, 0); !extra.ok()) return extra.error();
  JournalStatOptions o;
  FlagReader reader(kCommand, flags);
  read_journal_source(reader, o.source);
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
