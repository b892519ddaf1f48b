// serve --archive-url (behaviour.md §26): the journal's archive writer beside the serve loop. It
// uploads while this replica leads, shows its progress in /metrics, and tells retention what the
// archive holds.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "api/process_metrics.hpp"
#include "archive/journal_archiver.hpp"
#include "base/result.hpp"
#include "cmd/serve_flags.hpp"
#include "journal/journal.hpp"

namespace koordq::cmd {

class ServeArchive {
 public:
  // nullptr without --archive-url; an error (exit 2) when the URL or the S3 configuration from
  // the environment is unusable.
  static Result<std::shared_ptr<ServeArchive>> configure(const ServeOptions& options);

  // Starts uploading the journal, reporting into `metrics`; `now` is the records' clock.
  void start(journal::Journal& journal, api::ProcessMetrics& metrics, std::function<int64_t()> now);
  void stop();
  void set_leading(bool leading) { leading_.store(leading); }
  // What retention may drop up to: 0 until the archive was listed.
  uint64_t archived_seq() const;

 private:
  ServeArchive(archive::ArchiverOptions options, archive::S3Config config)
      : options_(std::move(options)), config_(std::move(config)) {}

  archive::ArchiverOptions options_;
  archive::S3Config config_;
  std::atomic<bool> leading_{false};
  mutable std::mutex mu_;
  std::shared_ptr<archive::JournalArchiver> archiver_;  // under mu_; a scrape may hold it a moment longer
  api::ProcessMetrics* metrics_ = nullptr;
};

}  // namespace koordq::cmd
