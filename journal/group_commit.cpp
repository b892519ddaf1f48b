#include "journal/group_commit.hpp"

#include <chrono>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include <rocksdb/write_batch.h>

#include "base/log.hpp"
#include "journal/keys.hpp"
#include "journal/unit_index.hpp"

namespace koordq::journal {
namespace {

int64_t steady_nanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

GroupCommitWriter::GroupCommitWriter(RocksStore& store, ChainHead head, int64_t last_time, RecordClock& clock,
                                     WriterOptions options, std::filesystem::path head_file)
    : store_(store),
      clock_(clock),
      options_(options),
      head_file_(std::move(head_file)),
      durable_(head),
      durable_time_(last_time),
      head_file_written_(head) {
  head_file_thread_ = std::thread([this] { run_head_file_writer(); });
  thread_ = std::thread([this] { run(); });
}

GroupCommitWriter::~GroupCommitWriter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  idle_cv_.notify_all();
  work_cv_.notify_all();
  thread_.join();
  head_file_cv_.notify_all();
  head_file_thread_.join();
}

void GroupCommitWriter::append(std::unique_ptr<RecordBody> body, AckCallback ack) {
  Pending p{std::move(body), std::move(ack), steady_nanos()};
  {
    std::lock_guard lock(mu_);
    if (!stopping_) {
      inputs_.push_back(std::move(p));
      work_cv_.notify_one();
      return;
    }
  }
  if (p.ack) p.ack(make_error("journal is closing"));
}

void GroupCommitWriter::append_all(std::vector<std::unique_ptr<RecordBody>> bodies,
                                   std::function<void(size_t, const Result<AppendedRecord>&)> ack) {
  if (bodies.empty()) return;
  const int64_t arrival = steady_nanos();
  auto shared_ack = std::make_shared<std::function<void(size_t, const Result<AppendedRecord>&)>>(std::move(ack));
  std::vector<Pending> group;
  group.reserve(bodies.size());
  for (size_t i = 0; i < bodies.size(); ++i) {
    group.push_back(Pending{std::move(bodies[i]),
                            [shared_ack, i](const Result<AppendedRecord>& r) { (*shared_ack)(i, r); }, arrival,
                            i + 1 == bodies.size()});
  }
  if (!options_.sync && write_on_caller(group)) return;
  {
    std::lock_guard lock(mu_);
    if (!stopping_) {
      for (auto& p : group) inputs_.push_back(std::move(p));
      work_cv_.notify_one();
      return;
    }
  }
  for (auto& p : group) p.ack(make_error("journal is closing"));
}

bool GroupCommitWriter::write_on_caller(std::vector<Pending>& group) {
  {
    std::unique_lock lock(mu_);
    idle_cv_.wait(lock, [&] { return stopping_ || (!writing_ && inputs_.empty()); });
    if (stopping_) return false;
    writing_ = true;
  }
  // Over the byte bound, write_group queues the rest for the writer thread, behind nothing.
  write_group(group);
  bool queued_behind;
  {
    std::lock_guard lock(mu_);
    writing_ = false;
    queued_behind = !inputs_.empty();
  }
  idle_cv_.notify_all();
  if (queued_behind) work_cv_.notify_one();
  return true;
}

void GroupCommitWriter::set_sync_observer(std::function<void(size_t, int64_t)> observer) {
  std::lock_guard lock(mu_);
  sync_observer_ = std::move(observer);
}

ChainHead GroupCommitWriter::durable_head() const {
  std::lock_guard lock(mu_);
  return durable_;
}

int64_t GroupCommitWriter::durable_time() const {
  std::lock_guard lock(mu_);
  return durable_time_;
}

bool GroupCommitWriter::wait_durable(uint64_t seq, int64_t timeout_nanos) const {
  std::unique_lock lock(mu_);
  durable_cv_.wait_for(lock, std::chrono::nanoseconds(timeout_nanos),
                       [&] { return durable_.seq >= seq || writer_done_; });
  return durable_.seq >= seq;
}

WriterStats GroupCommitWriter::stats() const {
  std::lock_guard lock(mu_);
  return stats_;
}

size_t GroupCommitWriter::pending() const {
  std::lock_guard lock(mu_);
  return inputs_.size();
}

std::optional<int64_t> GroupCommitWriter::oldest_pending_arrival() const {
  std::lock_guard lock(mu_);
  if (inputs_.empty()) return std::nullopt;
  return inputs_.front().arrival;
}

std::vector<GroupCommitWriter::Pending> GroupCommitWriter::take_group(std::unique_lock<std::mutex>& lock) {
  std::vector<Pending> group;
  if (!stopping_ && options_.max_batch_delay_nanos > 0 && !inputs_.empty() && !inputs_.back().ends_waited_batch) {
    // Adaptive linger: wait (up to the delay, counted from the oldest arrival) for as many
    // records as the previous group had, so concurrent producers share one sync while a lone
    // producer never waits.
    const size_t want = std::min(last_group_inputs_, options_.max_batch_records);
    const auto deadline = std::chrono::steady_clock::time_point(
        std::chrono::nanoseconds(inputs_.front().arrival + options_.max_batch_delay_nanos));
    work_cv_.wait_until(lock, deadline, [&] { return inputs_.size() >= want || stopping_; });
  }
  while (!inputs_.empty() && group.size() < options_.max_batch_records) {
    group.push_back(std::move(inputs_.front()));
    inputs_.pop_front();
  }
  return group;
}

void GroupCommitWriter::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [&] { return !writing_ && (stopping_ || !inputs_.empty()); });
    if (stopping_ && inputs_.empty()) break;
    std::vector<Pending> group = take_group(lock);
    if (group.empty()) continue;
    writing_ = true;
    lock.unlock();
    write_group(group);
    lock.lock();
    writing_ = false;
    idle_cv_.notify_all();
  }
  writer_done_ = true;
  idle_cv_.notify_all();
  durable_cv_.notify_all();
  head_file_cv_.notify_all();
}

void GroupCommitWriter::write_group(std::vector<Pending>& group) {
  ChainHead head;
  int64_t last_time;
  uint64_t dirty_from;
  {
    std::lock_guard lock(mu_);
    head = durable_;
    last_time = durable_time_;
    dirty_from = dirty_tail_from_;
  }

  // One batch for the writer's life: cleared, it keeps its buffer, so a group of megabytes does not
  // fault fresh pages in again each time.
  rocksdb::WriteBatch& batch = batch_;
  batch.Clear();
  if (dirty_from != 0) {
    // A failed write may have left unacknowledged records behind: drop them with this group.
    batch.DeleteRange(store_.log(), seq_key(dirty_from), seq_key(std::numeric_limits<uint64_t>::max()));
  }
  std::vector<Encoded> encoded;
  encoded.reserve(group.size());
  uint64_t bytes = 0;
  size_t taken = 0;
  for (auto& p : group) {
    if (taken > 0 && bytes >= options_.max_batch_bytes) break;
    const uint64_t seq = head.seq + 1;
    int64_t time = p.body->explicit_time().value_or(clock_.now());
    if (time < last_time) time = last_time;
    std::string value = p.body->canonical_bytes(seq, time, head.hash);
    const Hash hash = chain_hash(head.hash, value);
    value.append(as_bytes(hash));
    batch.Put(store_.log(), seq_key(seq), value);
    batch.Put(store_.time(), time_key(time, seq), rocksdb::Slice());
    index_units(store_, batch, seq, std::string_view(value).substr(0, value.size() - sizeof(Hash)));
    bytes += value.size();
    encoded.push_back(Encoded{AppendedRecord{seq, time, p.body->kind(), hash}, std::move(value)});
    head = ChainHead{seq, hash};
    last_time = time;
    ++taken;
  }
  if (taken < group.size()) {
    // Over the byte bound: the rest goes back to the front of the queue as the next group.
    std::lock_guard lock(mu_);
    for (size_t i = group.size(); i-- > taken;) inputs_.push_front(std::move(group[i]));
    group.resize(taken);
  }

  const int64_t sync_start = steady_nanos();
  Status written = store_.write(batch, options_.sync);
  const int64_t sync_nanos = steady_nanos() - sync_start;
  if (!written.ok()) {
    // A failed write stops RocksDB's writes; once the cause is gone (disk space freed) Resume()
    // lets them continue, so the next group may succeed.
    if (rocksdb::Status resumed = store_.db().Resume(); !resumed.ok()) {
      KQ_V(1)("journal: RocksDB cannot resume writing yet: {}", resumed.ToString());
    }
    {
      std::lock_guard lock(mu_);
      if (dirty_tail_from_ == 0) dirty_tail_from_ = durable_.seq + 1;
      ++stats_.failed_groups;
    }
    for (auto& p : group) {
      if (p.ack) p.ack(written.error());
    }
    durable_cv_.notify_all();
    return;
  }

  std::function<void(size_t, int64_t)> sync_observer;
  {
    std::lock_guard lock(mu_);
    durable_ = head;
    durable_time_ = last_time;
    dirty_tail_from_ = 0;
    stats_.appended_records += encoded.size();
    stats_.appended_bytes += bytes;
    ++stats_.groups;
    last_group_inputs_ = std::max<size_t>(group.size(), 1);
    sync_observer = sync_observer_;
  }
  durable_cv_.notify_all();
  if (options_.sync) head_file_cv_.notify_one();  // unsynced, HEAD follows every 50 ms on its own
  if (sync_observer) sync_observer(encoded.size(), sync_nanos);
  for (size_t i = 0; i < group.size(); ++i) {
    if (group[i].ack) group[i].ack(encoded[i].record);
  }
}

void GroupCommitWriter::run_head_file_writer() {
  std::unique_lock lock(mu_);
  for (;;) {
    const auto due = [&] { return durable_.seq != head_file_written_.seq || writer_done_; };
    if (options_.sync) {
      head_file_cv_.wait(lock, due);
    } else {
      head_file_cv_.wait_for(lock, std::chrono::milliseconds(50), due);  // groups do not notify
    }
    if (durable_.seq != head_file_written_.seq) {
      const ChainHead head = durable_;
      lock.unlock();
      // A failed HEAD write only makes HEAD lag, which recovery tolerates; the next group retries.
      const bool synced = options_.sync || store_.db().FlushWAL(/*sync=*/true).ok();
      const bool ok =
          synced &&
          write_head_file(head_file_, head, options_.sign_head ? options_.sign_head(head) : std::nullopt).ok();
      lock.lock();
      if (ok) head_file_written_ = head;
      if (!ok || !options_.sync) {
        // Unsynced groups come back to back: one WAL sync and HEAD write per interval covers them.
        if (writer_done_ && !ok) break;
        if (ok) {
          head_file_cv_.wait_for(lock, std::chrono::milliseconds(50), [&] { return writer_done_; });
        } else if (!writer_done_) {
          head_file_cv_.wait_for(lock, std::chrono::milliseconds(100));
        }
      }
      continue;
    }
    if (writer_done_) break;
  }
}

}  // namespace koordq::journal
