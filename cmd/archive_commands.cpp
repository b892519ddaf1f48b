// `koordq archive ls|verify|export` (behaviour.md §26).
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "api/json_out.hpp"
#include "archive/archive_reader.hpp"
#include "archive/s3_config.hpp"
#include "base/rfc3339.hpp"
#include "cmd/archive_flags.hpp"
#include "cmd/archive_target.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/progress.hpp"
#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::cmd {
namespace {

Result<archive::ArchivedJournal> find_journal(const OpenedArchive& opened, const ArchiveTarget& target) {
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
          .field("snapshots", static_cast<int64_t>(j.snapshots.size()))
          .field("bytes", static_cast<int64_t>(j.bytes));
      out.key("snapshotSeqs").begin_array();
      for (const auto& snapshot : j.snapshots) out.integer(static_cast<int64_t>(snapshot.seq));
      out.end_array();
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
    std::cout << fmt::format("cluster {} journal {}: {} segments, seq {}..{}, {} snapshots, {} bytes", j.cluster,
                             j.journal, j.segments.size(), j.segments.front().name.first_seq,
                             j.segments.back().name.last_seq, j.snapshots.size(), j.bytes);
    if (times[i]) {
      std::cout << ", " << base::format_rfc3339_millis(times[i]->first) << " .. "
                << base::format_rfc3339_millis(times[i]->last);
    }
    std::cout << '\n';
  }
  if (foreign > 0) std::cout << foreign << " other objects under the prefix are not segments or snapshots\n";
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
  std::cout << ", " << report.snapshots << " snapshots";
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
