// The journal's archive writer (behaviour.md §26): on the leader, cuts the durable journal into
// sealed segments (segment.hpp) of --archive-segment-records records, or fewer once the oldest
// unarchived record is --archive-segment-interval old, and PUTs each one under the journal's
// prefix (archive_location.hpp), under Object Lock retention when asked. It runs on a thread of its
// own and reads the journal only: ingestion and deciding never wait for it, and a failing or slow
// archive shows in its progress (metrics, an alert), not in latency.
//
// The journal's snapshots go along (archived_snapshot.hpp), each once the segments hold its seq, so
// that `at` from the archive starts near its instant.
//
// Idempotent: at start and after every failure it lists what the archive holds for this journal
// and continues after the last contiguous segment, so a restart or a new term uploads nothing
// twice (snapshots likewise); a range missing in the middle (a deleted segment) is uploaded again while the journal
// still holds it. Local retention asks archived_seq() and drops nothing after it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "archive/archive_location.hpp"
#include "archive/s3_client.hpp"
#include "archive/s3_objects.hpp"
#include "journal/journal.hpp"

namespace koordq::archive {

struct ArchiverOptions {
  ArchiveLocation location;
  std::string cluster;  // the identity the journal records (behaviour.md §2.1)
  uint64_t segment_records = 10'000;
  int64_t segment_interval_nanos = int64_t{10} * 60 * 1'000'000'000;
  int64_t lock_days = 0;  // 0: no retention is asked for
  ObjectLockMode lock_mode = ObjectLockMode::kGovernance;
  std::function<bool()> leading;      // uploads only while it says so; null: always
  std::function<int64_t()> now;       // the records' clock (virtual under a simulation), unix nanos
  std::function<int64_t()> wall_now;  // for Object Lock's retain-until date, unix nanos
  // On stop, what is durable and not yet archived is sealed and uploaded within this time.
  std::chrono::milliseconds final_upload = std::chrono::seconds(10);
  std::chrono::milliseconds poll = std::chrono::seconds(1);
  std::chrono::milliseconds max_backoff = std::chrono::minutes(1);
};

// What the metrics show (behaviour.md §15.2).
struct ArchiveProgress {
  uint64_t archived_seq = 0;                 // every seq from the journal's first retained one up to it is archived
  uint64_t durable_seq = 0;                  // the journal's durable head when last looked at
  int64_t oldest_unarchived = 0;             // its time (unix nanos), 0 when nothing waits
  uint64_t segments = 0;                     // uploaded by this process
  uint64_t bytes = 0;                        // their object bytes
  uint64_t records = 0;                      // their records
  uint64_t snapshots = 0;                    // snapshots uploaded by this process
  std::map<std::string, uint64_t> failures;  // by S3Error kind (or "journal")
  bool failing = false;                      // the last attempt failed
};

class JournalArchiver {
 public:
  JournalArchiver(ArchiverOptions options, S3Config config, journal::Journal& journal);
  ~JournalArchiver();
  JournalArchiver(const JournalArchiver&) = delete;
  JournalArchiver& operator=(const JournalArchiver&) = delete;

  void start();
  // While leading, seals and uploads what is durable and not archived yet (within
  // options.final_upload), then returns.
  void stop();
  // The seq up to which the archive holds the journal; 0 before the first listing.
  uint64_t archived_seq() const { return archived_.load(std::memory_order_acquire); }
  ArchiveProgress progress() const;
  // Wakes the thread (a durable group arrived, a test).
  void poke();

 private:
  void run();
  Status check_bucket();
  Status discover();
  // Uploads the next segment when one is due; true when one was uploaded.
  Result<bool> upload_due(bool force);
  // Uploads the oldest snapshot the archive lacks among those its segments cover; true when one was.
  Result<bool> upload_snapshot(bool force);
  Result<bool> upload_due_or_snapshot(bool force);
  void upload_tail();
  void failed(const std::string& kind, const std::string& message);
  bool wait(std::chrono::milliseconds delay);  // false on stop

  ArchiverOptions options_;
  S3Client client_;
  journal::Journal& journal_;
  std::atomic<uint64_t> archived_{0};
  std::map<uint64_t, uint64_t> held_;  // segments the archive holds past archived_: first → last (thread only)
  std::set<uint64_t> snapshots_held_;  // seqs of the snapshots the archive holds (thread only)
  uint64_t snapshots_listed_at_seq_ = UINT64_MAX;  // archived_seq() when none was left to upload (thread only)
  std::chrono::steady_clock::time_point snapshots_listed_;
  bool discovered_ = false;      // thread only
  bool bucket_checked_ = false;  // thread only
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;     // under mu_
  bool poked_ = false;        // under mu_
  ArchiveProgress progress_;  // under mu_
  std::string last_error_;    // thread only: a repeated failure is logged once
  std::thread thread_;
};

}  // namespace koordq::archive
