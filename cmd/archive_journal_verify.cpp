#include "cmd/archive_journal_verify.hpp"

#include <filesystem>

#include "cmd/archive_history.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"

namespace koordq::cmd {

std::optional<journal::VerifyReport> verify_archived_history(std::string_view command, const JournalSource& source,
                                                             const journal::VerifyingKey* key,
                                                             const journal::Progress& progress, int& exit_code) {
  HistoryRange all;
  all.key = key;
  all.broken_exit_code = kExitCheckFailed;
  auto history = open_archive_history(command, source, all, exit_code);
  if (!history) return std::nullopt;
  auto verified = journal::verify_journal(*history->reader, {}, progress, nullptr);
  if (!verified.ok()) {
    exit_code = kExitJournalUnreadable;
    fail_command(command, verified.message(), exit_code);
    return std::nullopt;
  }
  journal::VerifyReport report = *verified;
  if (report.broken) return report;
  if (!source.local) {
    // Every segment's trailer carried the key's signature (checked as it was read).
    if (key != nullptr) {
      report.signed_by = key->key_id();
      report.signed_seq = report.last_seq;
    }
    return report;
  }
  history.reset();
  auto local = open_journal_for_reading(command, source.path);
  if (!local) {
    exit_code = kExitJournalUnreadable;
    return std::nullopt;
  }
  auto own = journal::verify_journal(*local, std::filesystem::path(source.path) / "HEAD", {}, key);
  if (!own.ok()) {
    exit_code = kExitJournalUnreadable;
    fail_command(command, own.message(), exit_code);
    return std::nullopt;
  }
  if (own->broken) {
    report.broken = own->broken;
    return report;
  }
  report.signed_by = own->signed_by;
  report.signed_seq = own->signed_seq;
  return report;
}

}  // namespace koordq::cmd
