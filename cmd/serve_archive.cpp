#include "cmd/serve_archive.hpp"

#include "archive/s3_config.hpp"
#include "base/log.hpp"
#include "cmd/wall_clock.hpp"
#include "journal/cluster_identity.hpp"

namespace koordq::cmd {

Result<std::shared_ptr<ServeArchive>> ServeArchive::configure(const ServeOptions& o) {
  if (o.archive_url.empty()) return std::shared_ptr<ServeArchive>();
  auto location = archive::parse_archive_url(o.archive_url);
  if (!location.ok()) return make_error("--archive-url " + o.archive_url + ": " + location.message());
  auto addressing = archive::parse_s3_addressing(o.archive_addressing);
  if (!addressing.ok()) return addressing.error();
  auto config = archive::s3_config_from_environment(archive::process_environment(), *addressing);
  if (!config.ok()) return make_error("--archive-url " + o.archive_url + ": " + config.message());
  archive::ArchiverOptions options;
  options.location = std::move(location).value();
  options.segment_records = static_cast<uint64_t>(o.archive_segment_records);
  options.segment_interval_nanos = o.archive_segment_interval_ns;
  options.lock_days = o.archive_lock_days;
  options.lock_mode =
      o.archive_lock_mode == "compliance" ? archive::ObjectLockMode::kCompliance : archive::ObjectLockMode::kGovernance;
  KQ_LOG_INFO("journal archive: {} through {}", options.location.url(), config->describe());
  return std::shared_ptr<ServeArchive>(new ServeArchive(std::move(options), std::move(config).value()));
}

void ServeArchive::start(journal::Journal& journal, api::ProcessMetrics& metrics, std::function<int64_t()> now) {
  archive::ArchiverOptions options = options_;
  auto cluster = journal.reader().meta(journal::kMetaCluster);
  options.cluster = cluster.ok() && cluster->has_value() ? **cluster : std::string("unknown");
  options.leading = [this] { return leading_.load(); };
  options.now = now;
  options.wall_now = wall_now;
  auto archiver = std::make_shared<archive::JournalArchiver>(std::move(options), config_, journal);
  metrics.set_archive_source([archiver, now] {
    const archive::ArchiveProgress p = archiver->progress();
    api::ArchiveGauges g;
    g.archived_seq = p.archived_seq;
    g.lag_records = p.durable_seq > p.archived_seq ? p.durable_seq - p.archived_seq : 0;
    g.lag_seconds =
        p.oldest_unarchived == 0 ? 0 : static_cast<double>(std::max<int64_t>(now() - p.oldest_unarchived, 0)) / 1e9;
    g.segments = p.segments;
    g.bytes = p.bytes;
    g.records = p.records;
    g.failures = p.failures;
    return g;
  });
  archiver->start();
  std::lock_guard lock(mu_);
  metrics_ = &metrics;
  archiver_ = archiver;
}

void ServeArchive::stop() {
  std::shared_ptr<archive::JournalArchiver> archiver;
  {
    std::lock_guard lock(mu_);
    if (metrics_ != nullptr) metrics_->set_archive_source(nullptr);
    archiver = std::move(archiver_);
  }
  if (archiver) archiver->stop();
}

uint64_t ServeArchive::archived_seq() const {
  std::lock_guard lock(mu_);
  return archiver_ ? archiver_->archived_seq() : 0;
}

}  // namespace koordq::cmd
