#include "cmd/journal_source.hpp"

#include "archive/archive_location.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {

const FlagGroup& archive_read_flag_group() {
  static const FlagGroup group{
      "Archive flags (behaviour.md §26.6)",
      {
          {"--archive-url", "", "s3://BUCKET[/PREFIX]", "",
           "read the journal archive (serve --archive-url) instead of a local journal, or with --journal-dir "
           "before it: records older than the local journal's first retained seq come from the archive; "
           "endpoint, region and credentials from AWS_ENDPOINT_URL, AWS_REGION, AWS_ACCESS_KEY_ID/"
           "AWS_SECRET_ACCESS_KEY or AWS_SHARED_CREDENTIALS_FILE; excludes --export"},
          {"--archive-addressing", "", "STYLE", "auto",
           "auto (virtual-host for AWS, path-style for any other endpoint), path or virtual"},
          {"--archive-cluster", "", "ID", "",
           "the cluster (its kube-system uid, or simulator) when the archive holds several"},
          {"--archive-journal", "", "UUID", "the local journal's, else the only one",
           "the journal when the archive holds several of the cluster (one per replica that led)"},
          {"--archive-cache", "", "DIR|off", "$XDG_CACHE_HOME/koordq/archive, else ~/.cache/koordq/archive",
           "where fetched segments are kept, each checked again when read; off keeps none"},
          {"--archive-cache-size", "", "SIZE", "2GiB",
           "the most the cache holds; the least recently used segments go first"},
          {"--archive-stats", "", "", "false",
           "print on stderr how many segments were read, fetched, taken from the cache or fetched again, and the "
           "snapshot the state started from"},
      }};
  return group;
}

namespace {

void read_archive(FlagReader& reader, JournalSource& out) {
  const ParsedFlags& flags = reader.flags();
  out.kind = JournalSource::Kind::archive;
  out.local = flags.given(kJournalDirFlag.name);
  ArchiveRead& a = out.archive;
  reader.non_empty_text("--archive-url", a.target.url);
  if (reader.ok()) {
    if (auto at = archive::parse_archive_url(a.target.url); !at.ok()) {
      reader.reject("--archive-url", a.target.url, at.message());
    }
  }
  reader.choice("--archive-addressing", a.target.addressing,
                {{"auto", std::string("auto")}, {"path", std::string("path")}, {"virtual", std::string("virtual")}});
  reader.text("--archive-cluster", a.target.cluster);
  reader.text("--archive-journal", a.target.journal);
  reader.non_empty_text("--archive-cache", a.cache_dir);
  if (a.cache_dir == "off") {
    a.cache = false;
    a.cache_dir.clear();
  }
  reader.positive_byte_size("--archive-cache-size", a.cache_bytes);
  reader.boolean("--archive-stats", a.stats);
}

}  // namespace

void read_journal_source(FlagReader& reader, JournalSource& out) {
  if (!reader.ok()) return;
  const ParsedFlags& flags = reader.flags();
  if (flags.given(kExportFlag.name) && flags.given(kJournalDirFlag.name)) {
    return reader.fail(usage_error(reader.command(),
                                   "--export and --journal-dir exclude each other: --export reads "
                                   "an export file instead of a journal"));
  }
  if (flags.given(kExportFlag.name) && flags.given("--archive-url")) {
    return reader.fail(usage_error(reader.command(),
                                   "--export and --archive-url exclude each other: read the archive with "
                                   "--archive-url, or an export with --export"));
  }
  if (flags.given(kExportFlag.name)) {
    out.kind = JournalSource::Kind::export_file;
    out.path.clear();
    reader.non_empty_text(kExportFlag.name, out.path);
    return;
  }
  reader.non_empty_text(kJournalDirFlag.name, out.path);
  if (flags.given("--archive-url")) return read_archive(reader, out);
  for (const FlagSpec& flag : archive_read_flag_group().flags) {
    if (flags.given(flag.name)) {
      return reader.fail(usage_error(reader.command(), std::string(flag.name) + " needs --archive-url"));
    }
  }
}

std::vector<std::string_view> offline_exit_codes(std::string_view check_failed) {
  std::vector<std::string_view> lines = {"0  success"};
  if (!check_failed.empty()) lines.push_back(check_failed);
  lines.push_back("2  usage error: unknown command or flag, invalid value, WHEN out of range");
  lines.push_back("3  the journal, export or archive is unreadable or corrupt (named, with the fix)");
  return lines;
}

}  // namespace koordq::cmd
