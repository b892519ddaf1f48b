#include "archive/journal_archiver.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "archive/archived_snapshot.hpp"
#include "archive/segment.hpp"
#include "base/log.hpp"
#include "journal/keys.hpp"

namespace koordq::archive {
namespace {

constexpr int64_t kNanosPerDay = int64_t{86'400} * 1'000'000'000;

}  // namespace

JournalArchiver::JournalArchiver(ArchiverOptions options, S3Config config, journal::Journal& journal)
    : options_(std::move(options)), client_(std::move(config)), journal_(journal) {}

JournalArchiver::~JournalArchiver() {
  stop();
}

void JournalArchiver::start() {
  thread_ = std::thread([this] { run(); });
}

void JournalArchiver::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void JournalArchiver::poke() {
  {
    std::lock_guard lock(mu_);
    poked_ = true;
  }
  wake_.notify_all();
}

ArchiveProgress JournalArchiver::progress() const {
  std::lock_guard lock(mu_);
  ArchiveProgress out = progress_;
  out.archived_seq = archived_seq();
  return out;
}

bool JournalArchiver::wait(std::chrono::milliseconds delay) {
  std::unique_lock lock(mu_);
  wake_.wait_for(lock, delay, [this] { return stopping_ || poked_; });
  poked_ = false;
  return !stopping_;
}

void JournalArchiver::failed(const std::string& kind, const std::string& message) {
  {
    std::lock_guard lock(mu_);
    ++progress_.failures[kind];
    progress_.failing = true;
  }
  // The same failure again and again is logged once; its count is in the metrics.
  if (message != last_error_) KQ_LOG_ERROR("journal archive {}: {}", options_.location.url(), message);
  last_error_ = message;
}

void JournalArchiver::run() {
  std::chrono::milliseconds backoff = options_.poll;
  while (true) {
    if (options_.leading && !options_.leading()) {
      discovered_ = false;  // another replica may have uploaded meanwhile: list again when leading
      if (!wait(options_.poll)) return;
      continue;
    }
    Status ready = bucket_checked_ ? ok_status() : check_bucket();
    if (ready.ok() && !discovered_) ready = discover();
    Result<bool> uploaded = ready.ok() ? upload_due_or_snapshot(false) : Result<bool>(ready.error());
    if (!uploaded.ok()) {
      discovered_ = false;
      if (!wait(backoff)) return upload_tail();
      backoff = std::min(backoff * 2, options_.max_backoff);
      continue;
    }
    backoff = options_.poll;
    if (!last_error_.empty()) {
      KQ_LOG_INFO("journal archive {}: uploads succeed again (archived up to seq {})", options_.location.url(),
                  archived_seq());
      last_error_.clear();
      std::lock_guard lock(mu_);
      progress_.failing = false;
    }
    if (*uploaded) {
      std::lock_guard lock(mu_);
      if (!stopping_) continue;  // the next segment may be due already
    } else if (wait(options_.poll)) {
      continue;
    }
    return upload_tail();
  }
}

// On stop: the durable tail, sealed now, so that an orderly shutdown leaves the archive complete.
void JournalArchiver::upload_tail() {
  if (options_.leading && !options_.leading()) return;
  const auto deadline = std::chrono::steady_clock::now() + options_.final_upload;
  while (std::chrono::steady_clock::now() < deadline) {
    Status ready = bucket_checked_ ? ok_status() : check_bucket();
    if (ready.ok() && !discovered_) ready = discover();
    if (!ready.ok()) return;
    auto uploaded = upload_due_or_snapshot(true);
    if (!uploaded.ok() || !*uploaded) return;
  }
}

// With --archive-lock-days the bucket must have Object Lock: a PUT asking for retention on a
// bucket without it is refused, and a bucket the operator believes locked must not silently hold
// deletable history.
Status JournalArchiver::check_bucket() {
  if (options_.lock_days > 0) {
    auto lock = client_.get_object_lock_configuration(options_.location.bucket);
    if (!lock.ok()) {
      const std::string kind(s3_error_kind_name(lock.error().kind));
      std::string text = lock.error().text;
      if (lock.error().kind == S3ErrorKind::kNoObjectLock) {
        text = fmt::format(
            "bucket {} has no Object Lock, which --archive-lock-days {} needs; create the bucket with Object Lock "
            "enabled (it cannot be turned on later on every server) or set --archive-lock-days 0",
            options_.location.bucket, options_.lock_days);
      }
      failed(kind, text);
      return make_error(text);
    }
    if (!lock->enabled) {
      const std::string text = fmt::format(
          "bucket {} has Object Lock disabled, which --archive-lock-days {} needs; enable it or set "
          "--archive-lock-days 0",
          options_.location.bucket, options_.lock_days);
      failed("no-object-lock", text);
      return make_error(text);
    }
  }
  bucket_checked_ = true;
  return ok_status();
}

// Lists the segments the archive holds for this journal and continues after the contiguous run
// that covers the journal's first retained seq (or its first seq, when the archive holds none).
Status JournalArchiver::discover() {
  const std::string prefix = segments_prefix(options_.location, options_.cluster, journal_.uuid());
  std::map<uint64_t, uint64_t> held;
  std::string token;
  do {
    auto page = client_.list_objects_v2(options_.location.bucket, prefix, token);
    if (!page.ok()) {
      failed(std::string(s3_error_kind_name(page.error().kind)), page.error().text);
      return make_error(page.error().text);
    }
    for (const ListedObject& object : page->objects) {
      auto name = parse_segment_key(options_.location, object.key);
      if (name && name->journal == journal_.uuid())
        held[name->first_seq] = std::max(held[name->first_seq], name->last_seq);
    }
    token = page->truncated ? page->next_continuation_token : std::string();
  } while (!token.empty());
  std::set<uint64_t> snapshots;
  const std::string snapshot_prefix = snapshots_prefix(options_.location, options_.cluster, journal_.uuid());
  do {
    auto page = client_.list_objects_v2(options_.location.bucket, snapshot_prefix, token);
    if (!page.ok()) {
      failed(std::string(s3_error_kind_name(page.error().kind)), page.error().text);
      return make_error(page.error().text);
    }
    for (const ListedObject& object : page->objects) {
      auto name = parse_snapshot_key(options_.location, object.key);
      if (name && name->journal == journal_.uuid()) snapshots.insert(name->seq);
    }
    token = page->truncated ? page->next_continuation_token : std::string();
  } while (!token.empty());
  snapshots_held_ = std::move(snapshots);
  snapshots_listed_at_seq_ = UINT64_MAX;
  const uint64_t first = journal_.reader().first_seq();
  uint64_t archived = first == 0 ? 0 : first - 1;
  for (auto it = held.begin(); it != held.end() && it->first <= archived + 1;) {
    archived = std::max(archived, it->second);
    it = held.erase(it);
  }
  held_ = std::move(held);
  archived_.store(archived, std::memory_order_release);
  discovered_ = true;
  KQ_V(1)("journal archive {}: holds journal {} up to seq {}", options_.location.url(), journal_.uuid(), archived);
  return ok_status();
}

Result<bool> JournalArchiver::upload_due_or_snapshot(bool force) {
  auto segment = upload_due(force);
  if (!segment.ok() || *segment) return segment;
  return upload_snapshot(force);
}

Result<bool> JournalArchiver::upload_snapshot(bool force) {
  journal::JournalReader& reader = journal_.reader();
  const uint64_t archived = archived_seq();
  // Listing the journal's snapshots reads them: again only once the archive moved on, on stop, or
  // after a minute (a snapshot written after its seq was archived).
  const auto now = std::chrono::steady_clock::now();
  if (!force && archived == snapshots_listed_at_seq_ && now - snapshots_listed_ < std::chrono::minutes(1)) {
    return false;
  }
  for (const journal::SnapshotEntry& entry : reader.snapshots()) {
    if (entry.seq > archived) break;
    if (entry.seq < reader.first_seq() || snapshots_held_.contains(entry.seq)) continue;
    auto bytes = reader.store().get(reader.store().snapshot(), journal::seq_key(entry.seq));
    auto anchor = reader.meta(journal::snapshot_index_key(entry.seq));
    // A snapshot without an anchor (written before anchors) cannot be tied to the chain: not archived.
    if (!bytes.ok() || !anchor.ok() || !bytes->has_value() || !anchor->has_value() || (*anchor)->empty()) {
      snapshots_held_.insert(entry.seq);
      continue;
    }
    SnapshotObject snapshot{journal_.uuid(), entry.seq, **anchor, **bytes};
    auto object = render_snapshot_object(snapshot);
    if (!object.ok()) {
      failed("journal", object.message());
      return object.error();
    }
    PutObjectOptions put;
    put.content_type = "application/zstd";
    if (options_.lock_days > 0) {
      put.retention = ObjectRetention{options_.lock_mode, options_.wall_now() + options_.lock_days * kNanosPerDay};
    }
    const SnapshotName name{options_.cluster, journal_.uuid(), entry.seq};
    auto sent = client_.put_object(options_.location.bucket, snapshot_key(options_.location, name), *object, put);
    if (!sent.ok()) {
      failed(std::string(s3_error_kind_name(sent.error().kind)), sent.error().text);
      return make_error(sent.error().text);
    }
    snapshots_held_.insert(entry.seq);
    {
      std::lock_guard lock(mu_);
      ++progress_.snapshots;
      progress_.bytes += object->size();
    }
    KQ_V(2)("journal archive: snapshot at seq {} ({} bytes) uploaded", entry.seq, object->size());
    return true;
  }
  snapshots_listed_at_seq_ = archived;
  snapshots_listed_ = now;
  return false;
}

Result<bool> JournalArchiver::upload_due(bool force) {
  const uint64_t durable = journal_.writer().durable_head().seq;
  const uint64_t next = archived_seq() + 1;
  int64_t oldest = 0;
  if (next <= durable) {
    auto record = journal_.reader().get(next);
    if (!record.ok() || !record->has_value()) {
      // Retention dropped it (the journal ran without the archive), or it cannot be read.
      const std::string text = record.ok() ? fmt::format("seq {} is no longer in the journal", next) : record.message();
      failed("journal", text);
      return make_error(text);
    }
    oldest = (*record)->time();
  }
  {
    std::lock_guard lock(mu_);
    progress_.durable_seq = durable;
    progress_.oldest_unarchived = oldest;
  }
  if (next > durable) return false;
  uint64_t last = std::min(durable, next + options_.segment_records - 1);
  // A range the archive lacks between two it holds is filled exactly, never overlapped.
  const auto above = held_.lower_bound(next);
  const bool gap = above != held_.end() && above->first <= last + 1;
  if (above != held_.end()) last = std::min(last, above->first - 1);
  const bool full = last - next + 1 >= options_.segment_records;
  const bool old = oldest <= options_.now() - options_.segment_interval_nanos;
  if (!full && !old && !gap && !force) return false;

  auto built = build_segment(journal_.reader(), next, last, journal_.signing_key());
  if (!built.ok()) {
    failed("journal", built.message());
    return built.error();
  }
  const SegmentName name{options_.cluster, journal_.uuid(), next, last};
  PutObjectOptions put;
  put.content_type = "application/zstd";
  if (options_.lock_days > 0) {
    put.retention = ObjectRetention{options_.lock_mode, options_.wall_now() + options_.lock_days * kNanosPerDay};
  }
  auto sent = client_.put_object(options_.location.bucket, segment_key(options_.location, name), built->bytes, put);
  if (!sent.ok()) {
    failed(std::string(s3_error_kind_name(sent.error().kind)), sent.error().text);
    return make_error(sent.error().text);
  }
  uint64_t archived = last;
  for (auto it = held_.begin(); it != held_.end() && it->first <= archived + 1;) {
    archived = std::max(archived, it->second);
    it = held_.erase(it);
  }
  archived_.store(archived, std::memory_order_release);
  {
    std::lock_guard lock(mu_);
    ++progress_.segments;
    progress_.bytes += built->bytes.size();
    progress_.records += built->records;
  }
  KQ_V(2)
  ("journal archive: segment seq {}..{} ({} records, {} bytes, {} uncompressed) uploaded", next, last, built->records,
   built->bytes.size(), built->uncompressed_bytes);
  return true;
}

}  // namespace koordq::archive
