// The journal's single writer (design.md §3, §5). Producers append record bodies from any
// thread; one writer thread numbers them (dense seq, non-decreasing time, hash chain), writes
// each group as one RocksDB WriteBatch with sync (WriterOptions::sync), and only then acknowledges. Records arriving
// while a sync is in flight form the next group.
//
// The serve loops append an input batch, wait until it is durable, decide, and append the round as
// a group of its own (controller/sync_appender.hpp), so a leader's cycle costs two syncs
// (design.md §3).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <rocksdb/write_batch.h>

#include "base/result.hpp"
#include "journal/head_file.hpp"
#include "journal/record_body.hpp"
#include "journal/record_clock.hpp"
#include "journal/rocks_store.hpp"

namespace koordq::journal {

struct AppendedRecord {
  uint64_t seq = 0;
  int64_t time = 0;
  RecordKind kind = RecordKind::kTick;
  Hash hash{};
};

using AckCallback = std::function<void(const Result<AppendedRecord>&)>;

struct WriterOptions {
  int64_t max_batch_delay_nanos = 1'000'000;  // --journal-max-batch-delay
  size_t max_batch_records = 8192;
  size_t max_batch_bytes = 16u << 20;
  // The signature HEAD carries for a head (journal signing key), set by Journal::open.
  std::function<std::optional<Signature>(const ChainHead&)> sign_head;
  // False: groups are neither fsync'd nor written out one by one (the virtual-clock simulator,
  // whose journal its seed reproduces): RocksDB buffers the WAL (Journal::open), and "durable"
  // means in that buffer. HEAD is then written only after the WAL is flushed and synced, at most
  // every 50 ms, so it never names a record a crash could take; and append_all writes its bodies
  // on the caller's thread (a write to memory is shorter than the hop to the writer).
  bool sync = true;
};

struct WriterStats {
  uint64_t appended_records = 0;
  uint64_t appended_bytes = 0;
  uint64_t groups = 0;
  uint64_t failed_groups = 0;
};

class GroupCommitWriter {
 public:
  // `head` is the chain head of the journal as opened, `last_time` the time of its last record.
  GroupCommitWriter(RocksStore& store, ChainHead head, int64_t last_time, RecordClock& clock, WriterOptions options,
                    std::filesystem::path head_file);
  ~GroupCommitWriter();  // writes what was appended, then stops
  GroupCommitWriter(const GroupCommitWriter&) = delete;
  GroupCommitWriter& operator=(const GroupCommitWriter&) = delete;

  void append(std::unique_ptr<RecordBody> body, AckCallback ack);
  // The bodies in order, queued at once, acknowledged as ack(index, result). The writer does not
  // linger for more records behind them: their producer waits for them.
  void append_all(std::vector<std::unique_ptr<RecordBody>> bodies,
                  std::function<void(size_t, const Result<AppendedRecord>&)> ack);
  // Called on the writer thread for each group that measured its sync, for metrics.
  void set_sync_observer(std::function<void(size_t records, int64_t sync_nanos)> observer);

  ChainHead durable_head() const;
  int64_t durable_time() const;
  // Blocks until seq is durable, the timeout passes, or the writer stops. True when durable.
  bool wait_durable(uint64_t seq, int64_t timeout_nanos) const;
  WriterStats stats() const;
  // Records waiting to be written (held or queued), and the arrival time of the oldest.
  size_t pending() const;
  std::optional<int64_t> oldest_pending_arrival() const;

 private:
  struct Pending {
    std::unique_ptr<RecordBody> body;
    AckCallback ack;
    int64_t arrival;                 // RecordClock reading when appended
    bool ends_waited_batch = false;  // the last of an append_all
  };
  struct Encoded {
    AppendedRecord record;
    std::string value;
  };

  void run();
  void run_head_file_writer();
  std::vector<Pending> take_group(std::unique_lock<std::mutex>& lock);
  void write_group(std::vector<Pending>& group);
  // Unsynced: writes `group` on the caller's thread once nothing queued is ahead of it. False when
  // the writer must take it instead (stopping).
  bool write_on_caller(std::vector<Pending>& group);

  RocksStore& store_;
  RecordClock& clock_;
  const WriterOptions options_;
  const std::filesystem::path head_file_;

  mutable std::mutex mu_;
  std::condition_variable work_cv_;
  std::condition_variable idle_cv_;  // writing_ cleared
  mutable std::condition_variable durable_cv_;
  std::condition_variable head_file_cv_;
  std::deque<Pending> inputs_;
  bool stopping_ = false;
  bool writing_ = false;  // a group is being written (by the writer thread or an append_all caller)
  bool writer_done_ = false;
  ChainHead durable_;
  int64_t durable_time_ = 0;
  ChainHead head_file_written_;
  size_t last_group_inputs_ = 1;
  uint64_t dirty_tail_from_ = 0;  // after a failed write: seqs from here may hold unacknowledged records
  WriterStats stats_;
  std::function<void(size_t, int64_t)> sync_observer_;
  rocksdb::WriteBatch batch_;  // the writer thread's, reused from group to group

  std::thread head_file_thread_;
  std::thread thread_;
};

}  // namespace koordq::journal
