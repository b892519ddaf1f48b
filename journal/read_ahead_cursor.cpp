#include "journal/read_ahead_cursor.hpp"

#include <utility>

namespace koordq::journal {

ReadAheadCursor::ReadAheadCursor(RecordCursor cursor, size_t batch_records, size_t max_batches)
    : cursor_(std::move(cursor)),
      batch_records_(batch_records > 0 ? batch_records : 1),
      max_batches_(max_batches > 0 ? max_batches : 1),
      thread_([this] { run(); }) {}

ReadAheadCursor::~ReadAheadCursor() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ReadAheadCursor::run() {
  for (;;) {
    Batch batch;
    batch.records.reserve(batch_records_);
    while (batch.records.size() < batch_records_) {
      auto next = cursor_.next();
      if (!next.ok()) {
        batch.error = next.error();
        break;
      }
      if (!next->has_value()) {
        batch.end = true;
        break;
      }
      batch.records.push_back(std::move(**next));
    }
    const bool last = batch.error || batch.end;
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return stopping_ || ready_.size() < max_batches_; });
    if (stopping_) return;
    ready_.push_back(std::move(batch));
    changed_.notify_all();
    if (last) return;
  }
}

Result<std::optional<StoredRecord>> ReadAheadCursor::next() {
  while (at_ == current_.records.size()) {
    if (current_.error) {
      finished_ = true;
      return *current_.error;
    }
    if (current_.end || finished_) {
      finished_ = true;
      return std::optional<StoredRecord>{};
    }
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return !ready_.empty(); });
    current_ = std::move(ready_.front());
    ready_.pop_front();
    at_ = 0;
    changed_.notify_all();
  }
  return std::optional<StoredRecord>{std::move(current_.records[at_++])};
}

}  // namespace koordq::journal
