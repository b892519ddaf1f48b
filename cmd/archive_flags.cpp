#include "cmd/archive_flags.hpp"

#include "archive/archive_location.hpp"
#include "cmd/flag_reader.hpp"
#include "cmd/journal_source.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {
namespace {

const FlagSpec kArchiveUrlFlag{"--archive-url", "", "s3://BUCKET[/PREFIX]", "",
                               "the archive (serve --archive-url); endpoint, region and credentials from "
                               "AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or "
                               "AWS_SHARED_CREDENTIALS_FILE"};
const FlagSpec kAddressingFlag{"--archive-addressing", "", "STYLE", "auto",
                               "auto (virtual-host for AWS, path-style for any other endpoint), path or virtual"};
const FlagSpec kClusterFlag{"--cluster", "", "ID", "",
                            "the cluster (its kube-system uid, or simulator) when the archive holds several"};
const FlagSpec kJournalFlag{"--journal", "", "UUID", "",
                            "the journal when the archive holds several of the cluster (one per replica that led)"};

const std::vector<std::string_view> kArchiveExitCodes = {
    "0  success",
    "1  a segment is missing, altered, truncated, of another journal, or not signed by the key (named)",
    "2  usage error: unknown command or flag, invalid value, no --archive-url",
    "3  the archive cannot be read: wrong endpoint or credentials, no such bucket, a skewed clock (named, with "
    "the fix)",
};

Status read_target(FlagReader& reader, const ParsedFlags& flags, std::string_view command, ArchiveTarget& t) {
  if (!flags.given("--archive-url")) return usage_error(command, "--archive-url is required");
  reader.non_empty_text("--archive-url", t.url);
  if (reader.ok()) {
    if (auto at = archive::parse_archive_url(t.url); !at.ok()) reader.reject("--archive-url", t.url, at.message());
  }
  reader.choice("--archive-addressing", t.addressing,
                {{"auto", std::string("auto")}, {"path", std::string("path")}, {"virtual", std::string("virtual")}});
  reader.text("--cluster", t.cluster);
  reader.text("--journal", t.journal);
  return ok_status();
}

Status no_positionals(std::string_view command, const ParsedFlags& flags) {
  if (flags.positionals().empty()) return ok_status();
  return usage_error(command, "unexpected argument \"" + flags.positionals()[0] + "\"");
}

}  // namespace

const CommandSpec& archive_command_spec() {
  static const CommandSpec spec{
      .path = "archive",
      .summary = "list, verify or export the journal archive in S3",
      .description =
          "Reads the archive that serve --archive-url writes: sealed segments of each journal in S3-compatible "
          "object storage (PREFIX/CLUSTER/JOURNAL-UUID/segments/FIRST-LAST.ndjson.zst), each one a verifiable "
          "export, and its snapshots (PREFIX/CLUSTER/JOURNAL-UUID/snapshots/SEQ.snapshot.zst). Needs no cluster and "
          "no local journal. replay, at, explain and journal export|verify|stat read the archive directly with "
          "--archive-url.",
      .usage = {"koordq archive <command> [flags]"},
      .arguments = {},
      .flag_groups = {},
      .subcommands =
          {
              subcommand_summary(archive_ls_command_spec()),
              subcommand_summary(archive_verify_command_spec()),
              subcommand_summary(archive_export_command_spec()),
          },
      .sections = {},
      .exit_codes = {},
  };
  return spec;
}

const CommandSpec& archive_ls_command_spec() {
  static const CommandSpec spec{
      .path = "archive ls",
      .summary = "list the clusters, journals and time ranges in an archive",
      .description =
          "Lists every journal under the prefix, by cluster: its segments, seq range, snapshots, bytes and the time "
          "of its first and last record (read from its first and last segment; --times=false skips that). Objects "
          "that are neither segments nor snapshots are counted.",
      .usage = {"koordq archive ls --archive-url s3://BUCKET[/PREFIX] [--times=false] [-o text|json]"},
      .arguments = {},
      .flag_groups = {{"Flags",
                       {kArchiveUrlFlag,
                        kAddressingFlag,
                        {"--times", "", "", "true", "read each journal's first and last record time"},
                        {"-o", "--output", "FORMAT", "text", "text or json"}}}},
      .subcommands = {},
      .sections = {},
      .exit_codes = kArchiveExitCodes,
  };
  return spec;
}

const CommandSpec& archive_verify_command_spec() {
  static const CommandSpec spec{
      .path = "archive verify",
      .summary = "check every segment's chain and signature, each snapshot's anchor, and that none is missing",
      .description =
          "Checks every segment of a journal in the archive: the object decompresses, its lines chain and are each "
          "the rendering of their record, its trailer names exactly its records and agrees with its key, and each "
          "segment continues the one before it (no seq missing, no fork); every archived snapshot matches its "
          "anchor, whose chain hash is the archive's hash of its seq. With --public-key every segment's trailer "
          "and snapshot's anchor must carry that key's signature. Prints `ok: <n> segments, <r> records, seq "
          "<a>..<b>, head <hash>, <s> snapshots` or one line naming the first bad segment or snapshot and what "
          "is wrong.",
      .usage = {"koordq archive verify --archive-url s3://BUCKET[/PREFIX] [--cluster ID] [--journal UUID] "
                "[--public-key FILE]"},
      .arguments = {},
      .flag_groups = {{"Flags",
                       {kArchiveUrlFlag,
                        kAddressingFlag,
                        kClusterFlag,
                        kJournalFlag,
                        {"--public-key", "", "FILE", "",
                         "the Ed25519 public key (PEM) from journal keygen; every segment must be signed by it"}}}},
      .subcommands = {},
      .sections = {},
      .exit_codes = kArchiveExitCodes,
  };
  return spec;
}

const CommandSpec& archive_export_command_spec() {
  static const CommandSpec spec{
      .path = "archive export",
      .summary = "write a journal's archived records as one NDJSON export",
      .description =
          "Writes the records of a journal's archive (or of a seq range) as one NDJSON export, the lines exactly "
          "as `koordq journal export` writes them and one trailer for the whole range; each segment is checked "
          "before its lines are written. Pipe it to `koordq replay --export -`, `koordq at --export -`, `koordq "
          "explain --export -` or `koordq journal verify --export -`.",
      .usage = {"koordq archive export --archive-url s3://BUCKET[/PREFIX] [--cluster ID] [--journal UUID] "
                "[--from-seq N] [--to-seq N] [FILE|-]"},
      .arguments = {{"FILE|-", "where to write the export; - (the default) is stdout"}},
      .flag_groups = {{"Flags",
                       {kArchiveUrlFlag,
                        kAddressingFlag,
                        kClusterFlag,
                        kJournalFlag,
                        {"--from-seq", "", "N", "1", "first seq written"},
                        {"--to-seq", "", "N", "the last archived", "last seq written"}}}},
      .subcommands = {},
      .sections = {},
      .exit_codes = kArchiveExitCodes,
  };
  return spec;
}

Result<ArchiveLsOptions> read_archive_ls_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "archive ls";
  if (Status s = no_positionals(kCommand, flags); !s.ok()) return s.error();
  ArchiveLsOptions o;
  FlagReader reader(kCommand, flags);
  if (Status s = read_target(reader, flags, kCommand, o.target); !s.ok()) return s.error();
  reader.boolean("--times", o.times);
  reader.choice("-o", o.output, {{"text", ArchiveLsOutput::text}, {"json", ArchiveLsOutput::json}});
  if (!reader.ok()) return reader.error();
  return o;
}

Result<ArchiveVerifyOptions> read_archive_verify_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "archive verify";
  if (Status s = no_positionals(kCommand, flags); !s.ok()) return s.error();
  ArchiveVerifyOptions o;
  FlagReader reader(kCommand, flags);
  if (Status s = read_target(reader, flags, kCommand, o.target); !s.ok()) return s.error();
  reader.text("--public-key", o.public_key_file);
  if (!reader.ok()) return reader.error();
  return o;
}

Result<ArchiveExportOptions> read_archive_export_options(const ParsedFlags& flags, const CommandEnvironment&) {
  constexpr std::string_view kCommand = "archive export";
  if (flags.positionals().size() > 1) {
    return usage_error(kCommand, "unexpected argument \"" + flags.positionals()[1] + "\"");
  }
  ArchiveExportOptions o;
  if (!flags.positionals().empty()) o.output = flags.positionals().front();
  FlagReader reader(kCommand, flags);
  if (Status s = read_target(reader, flags, kCommand, o.target); !s.ok()) return s.error();
  int64_t from = 1, to = INT64_MAX;
  reader.integer("--from-seq", from, 1);
  reader.integer("--to-seq", to, 1);
  o.from_seq = static_cast<uint64_t>(from);
  o.to_seq = flags.given("--to-seq") ? static_cast<uint64_t>(to) : UINT64_MAX;
  if (!reader.ok()) return reader.error();
  if (o.to_seq < o.from_seq) return usage_error(kCommand, "--to-seq is before --from-seq");
  return o;
}

}  // namespace koordq::cmd
