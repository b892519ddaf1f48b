// A RecordCursor read on a thread of its own, a few batches ahead of its consumer: replay, time
// travel and explain fold one record while the next ones are read, decompressed and parsed,
// which takes about as long again (BENCHMARKS.md, Replay).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "journal/journal_reader.hpp"

namespace koordq::journal {

class ReadAheadCursor {
 public:
  // Reads up to `batch_records` records at a time and holds at most `max_batches` unread batches.
  explicit ReadAheadCursor(RecordCursor cursor, size_t batch_records = 256, size_t max_batches = 8);
  ~ReadAheadCursor();  // stops reading; what was read ahead is dropped
  ReadAheadCursor(const ReadAheadCursor&) = delete;
  ReadAheadCursor& operator=(const ReadAheadCursor&) = delete;

  // What RecordCursor::next would return, in the same order, the error included.
  Result<std::optional<StoredRecord>> next();

 private:
  struct Batch {
    std::vector<StoredRecord> records;
    std::optional<Error> error;  // after the records
    bool end = false;            // after the records: nothing follows
  };

  void run();

  RecordCursor cursor_;
  const size_t batch_records_;
  const size_t max_batches_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Batch> ready_;
  bool stopping_ = false;
  Batch current_;
  size_t at_ = 0;
  bool finished_ = false;  // the consumer saw the end or the error
  std::thread thread_;     // last: started once everything above is constructed
};

}  // namespace koordq::journal
