// `koordq archive ls|verify|export` (behaviour.md §26).
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "api/json_out.hpp"
#include "archive/archive_reader.hpp"
#include "archive/s3_config.hpp"
#include "base/rfc3339.hpp"
#include "cmd/archive_flags.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/progress.hpp"
#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::cmd {
namespace {

struct Opened {
  archive::ArchiveLocation location;
  std::unique_ptr<archive::S3Client> client;
};

Result<Opened> open_archive(const ArchiveTarget& target) {
  auto location = archive::parse_archive_url(target.url);
  if (!location.ok()) return location.error();
  auto addressing = archive::parse_s3_addressing(target.addressing);
  if (!addressing.ok()) return addressing.error();
  auto config = archive::s3_config_from_environment(archive::process_environment(), *addressing);
  if (!config.ok()) return config.error();
  return Opened{std::move(location).value(), std::make_unique<archive::S3Client>(std::move(config).value())};
}

// The one journal the flags name (or the only one there is).
Result<archive::ArchivedJournal> pick_journal(std::vector<archive::ArchivedJournal> journals,
                                              const ArchiveTarget& target) {
  std::vector<archive::ArchivedJournal> matching;
  for (auto& j : journals) {
    if ((target.cluster.empty() || j.cluster == target.cluster) &&
        (target.journal.empty() || j.journal == target.journal)) {
      matching.push_back(std::move(j));
    }
  }
  if (matching.size() == 1) return std::move(matching.front());
  if (matching.empty()) {
    return make_error(fmt::format("{} holds no journal{}{}; `koordq archive ls --archive-url {}` lists what it holds",
                                  target.url, target.cluster.empty() ? "" : " of cluster " + target.cluster,
                                  target.journal.empty() ? "" : " with UUID " + target.journal, target.url));
  }
  std::string names;
  for (const auto& j : matching) names += (names.empty() ? "" : ", ") + j.cluster + "/" + j.journal;
  return make_error(fmt::format("{} holds {} journals ({}); name one with --cluster and --journal", target.url,
                                matching.size(), names));
}

Result<archive::ArchivedJournal> find_journal(const Opened& opened, const ArchiveTarget& target) {
  auto journals = archive::list_archive(*opened.client, opened.location);
  if (!journals.ok()) return journals.error();
  return pick_journal(std::move(journals).value(), target);
}

}  // namespace

int run_archive_ls(const ArchiveLsOptions& options) {
  constexpr std::string_view kCommand = "archive ls";
  auto opened = open_archive(options.target);
  if (!opened.ok()) return fail_command(kCommand, opened.message(), kExitUsage);
  uint64_t foreign = 0;
  auto journals = archive::list_archive(*opened->client, opened->location, &foreign);
  if (!journals.ok()) return fail_command(kCommand, journals.message(), kExitJournalUnreadable);
  std::vector<std::optional<archive::ArchivedTimes>> times;
  for (const auto& j : *journals) {
    if (!options.times) {
      times.emplace_back();
      continue;
    }
    auto t = archive::archived_times(*opened->client, opened->location, j);
    if (!t.ok()) return fail_command(kCommand, t.message(), kExitCheckFailed);
    times.emplace_back(*t);
  }
  if (options.output == ArchiveLsOutput::json) {
    api::JsonOut out(true);
    out.begin_object().field("archive", opened->location.url()).key("journals").begin_array();
    for (size_t i = 0; i < journals->size(); ++i) {
      const auto& j = (*journals)[i];
      out.begin_object()
          .field("cluster", j.cluster)
          .field("journal", j.journal)
          .field("segments", static_cast<int64_t>(j.segments.size()))
          .field("firstSeq", static_cast<int64_t>(j.segments.front().name.first_seq))
          .field("lastSeq", static_cast<int64_t>(j.segments.back().name.last_seq))
          .field("bytes", static_cast<int64_t>(j.bytes));
      if (times[i]) {
        out.field("firstTime", base::format_rfc3339_millis(times[i]->first))
            .field("lastTime", base::format_rfc3339_millis(times[i]->last));
      }
      out.end_object();
    }
    out.end_array().field("otherObjects", static_cast<int64_t>(foreign)).end_object();
    std::cout << out.take() << '\n';
    return kExitSuccess;
  }
  if (journals->empty()) std::cout << opened->location.url() << " holds no journal\n";
  for (size_t i = 0; i < journals->size(); ++i) {
    const auto& j = (*journals)[i];
    std::cout << fmt::format("cluster {} journal {}: {} segments, seq {}..{}, {} bytes", j.cluster, j.journal,
                             j.segments.size(), j.segments.front().name.first_seq, j.segments.back().name.last_seq,
                             j.bytes);
    if (times[i]) {
      std::cout << ", " << base::format_rfc3339_millis(times[i]->first) << " .. "
                << base::format_rfc3339_millis(times[i]->last);
    }
    std::cout << '\n';
  }
  if (foreign > 0) std::cout << foreign << " other objects under the prefix are not segments\n";
  return kExitSuccess;
}

int run_archive_verify(const ArchiveVerifyOptions& options) {
  constexpr std::string_view kCommand = "archive verify";
  std::optional<journal::VerifyingKey> key;
  if (!options.public_key_file.empty()) {
    auto loaded = journal::VerifyingKey::load(options.public_key_file);
    if (!loaded.ok()) return fail_command(kCommand, "--public-key: " + loaded.message(), kExitUsage);
    key = std::move(loaded).value();
  }
  auto opened = open_archive(options.target);
  if (!opened.ok()) return fail_command(kCommand, opened.message(), kExitUsage);
  auto journal = find_journal(*opened, options.target);
  if (!journal.ok()) return fail_command(kCommand, journal.message(), kExitJournalUnreadable);
  TerminalProgress progress("verifying segments", journal->segments.size());
  const archive::ArchiveVerifyReport report =
      archive::verify_archived_journal(*opened->client, opened->location, *journal, key ? &*key : nullptr,
                                       [&](uint64_t done, uint64_t) { progress.update(done, 0); });
  if (!report.error.empty()) return fail_command(kCommand, report.error, kExitCheckFailed);
  std::cout << fmt::format("ok: {} segments, {} records, seq {}..{}, head {}", report.segments, report.records,
                           report.first_seq, report.last_seq, journal::to_hex(report.head));
  if (key) std::cout << ", signed by key " << key->key_id();
  if (!report.from_genesis)
    std::cout << " (the archive starts at seq " << report.first_seq << ", not at the journal's start)";
  std::cout << '\n';
  return kExitSuccess;
}

int run_archive_export(const ArchiveExportOptions& options) {
  constexpr std::string_view kCommand = "archive export";
  auto opened = open_archive(options.target);
  if (!opened.ok()) return fail_command(kCommand, opened.message(), kExitUsage);
  auto journal = find_journal(*opened, options.target);
  if (!journal.ok()) return fail_command(kCommand, journal.message(), kExitJournalUnreadable);
  std::ofstream file;
  if (options.output != "-") {
    file.open(options.output, std::ios::binary | std::ios::trunc);
    if (!file) return fail_command(kCommand, "cannot write " + options.output, kExitUsage);
  }
  std::ostream& out = options.output == "-" ? std::cout : file;
  TerminalProgress progress("exporting segments", journal->segments.size());
  auto written =
      archive::export_archived_journal(*opened->client, opened->location, *journal, options.from_seq, options.to_seq,
                                       out, [&](uint64_t done, uint64_t) { progress.update(done, 0); });
  if (!written.ok()) return fail_command(kCommand, written.message(), kExitCheckFailed);
  out.flush();
  return kExitSuccess;
}

}  // namespace koordq::cmd
