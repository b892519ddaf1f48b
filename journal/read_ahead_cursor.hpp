// A RecordCursor read on a thread of its own, a few batches ahead of its consumer: replay, time
// travel and explain fold one record while the next ones are read, decompressed and parsed,
// which takes about as long again (BENCHMARKS.md, Replay). ReadAhead<Item> also runs a per-record
// preparation on that thread (decoding a record into what applying it does), so that only what
// needs the consumer's state is left to the consumer.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "journal/journal_reader.hpp"

namespace koordq::journal {

template <class Item>
class ReadAhead {
 public:
  // Turns a record into the item the consumer gets; an error stops the reading there, and the
  // consumer gets it after the items before it, as it would a read error.
  using Prepare = std::function<Result<Item>(StoredRecord&&)>;

  // With `when_behind`, a batch read while fewer than two batches wait for the consumer is
  // prepared by it instead: the cheaper preparation, which leaves work to the consumer, so that
  // neither thread waits for the other (BENCHMARKS.md, Replay: a full replay 246 → 199 ms).
  // Reads up to `batch_records` records at a time and holds at most `max_batches` unread batches.
  ReadAhead(RecordCursor cursor, Prepare prepare, Prepare when_behind = nullptr, size_t batch_records = 256,
            size_t max_batches = 8)
      : cursor_(std::move(cursor)),
        prepare_(std::move(prepare)),
        when_behind_(std::move(when_behind)),
        batch_records_(batch_records > 0 ? batch_records : 1),
        max_batches_(max_batches > 0 ? max_batches : 1),
        thread_([this] { run(); }) {}

  ~ReadAhead() {  // stops reading; what was read ahead is dropped
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  // What RecordCursor::next would return, prepared, in the same order, the error included; nullptr
  // at the end. The item is the consumer's until the next call, which frees it on the reading
  // thread (it allocated it; freeing it there takes that work off the consumer).
  Result<Item*> next() {
    while (at_ == current_.items.size()) {
      if (current_.error) {
        finished_ = true;
        return *current_.error;
      }
      if (current_.end || finished_) {
        finished_ = true;
        return static_cast<Item*>(nullptr);
      }
      std::unique_lock lock(mu_);
      changed_.wait(lock, [&] { return !ready_.empty(); });
      // What is left of a consumed batch is freed on the reading thread, which allocated it.
      spent_.push_back(std::move(current_));
      current_ = std::move(ready_.front());
      ready_.pop_front();
      ready_count_.store(ready_.size(), std::memory_order_relaxed);
      at_ = 0;
      changed_.notify_all();
    }
    return &current_.items[at_++];
  }

 private:
  struct Batch {
    std::vector<Item> items;
    std::optional<Error> error;  // after the items
    bool end = false;            // after the items: nothing follows
  };

  void run() {
    for (;;) {
      Batch batch;
      batch.items.reserve(batch_records_);
      const bool behind = when_behind_ && ready_count_.load(std::memory_order_relaxed) < 2;
      const Prepare& prepare = behind ? when_behind_ : prepare_;
      while (batch.items.size() < batch_records_) {
        auto next = cursor_.next();
        if (!next.ok()) {
          batch.error = next.error();
          break;
        }
        if (!next->has_value()) {
          batch.end = true;
          break;
        }
        auto item = prepare(std::move(**next));
        if (!item.ok()) {
          batch.error = item.error();
          break;
        }
        batch.items.push_back(std::move(item).value());
      }
      const bool last = batch.error || batch.end;
      std::deque<Batch> spent;
      {
        std::unique_lock lock(mu_);
        changed_.wait(lock, [&] { return stopping_ || ready_.size() < max_batches_; });
        if (stopping_) return;
        ready_.push_back(std::move(batch));
        ready_count_.store(ready_.size(), std::memory_order_relaxed);
        spent.swap(spent_);
        changed_.notify_all();
      }
      if (last) return;
    }
  }

  RecordCursor cursor_;
  const Prepare prepare_;
  const Prepare when_behind_;
  const size_t batch_records_;
  const size_t max_batches_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Batch> ready_;
  std::atomic<size_t> ready_count_ = 0;  // ready_.size(), read by the reading thread unlocked
  std::deque<Batch> spent_;              // consumed, to be freed by the reading thread
  bool stopping_ = false;
  Batch current_;
  size_t at_ = 0;
  bool finished_ = false;  // the consumer saw the end or the error
  std::thread thread_;     // last: started once everything above is constructed
};

// The records themselves, read ahead.
class ReadAheadCursor : public ReadAhead<StoredRecord> {
 public:
  explicit ReadAheadCursor(RecordCursor cursor, size_t batch_records = 256, size_t max_batches = 8)
      : ReadAhead(
            std::move(cursor), [](StoredRecord&& r) -> Result<StoredRecord> { return std::move(r); }, nullptr,
            batch_records, max_batches) {}
};

}  // namespace koordq::journal
