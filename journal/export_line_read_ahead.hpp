// The lines of an NDJSON export read on a thread of its own, a few batches ahead of the chain
// check, which is sequential: while it is ahead, that thread also matches each line against the
// rendering of its record (record_of_rendered_line), the bulk of `journal verify --export`'s work,
// so that two cores share it. A batch read while fewer than two wait is handed over unmatched and
// its lines are matched by the consumer (as ReadAhead does with records), so neither thread waits
// for the other. The first batch is read on the constructing thread, and the thread starts only
// when the input goes on after it: a short export (a fuzz input, a small range) starts none.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <istream>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "journal/line_reader.hpp"
#include "journal/stored_record.hpp"

namespace koordq::journal {

class ExportLineReadAhead {
 public:
  struct Line {
    std::string_view text;  // without its '\n'
    bool matched = false;   // when true, `rendered` is record_of_rendered_line(text)
    std::optional<StoredRecord> rendered;
    size_t offset = 0;  // of the text in its batch's bytes (a short string moves with its batch)
  };

  explicit ExportLineReadAhead(std::istream& in, size_t batch_lines = 256, size_t max_batches = 8);
  // Stops reading (after the read under way, which on a pipe waits for its writer).
  ~ExportLineReadAhead();
  ExportLineReadAhead(const ExportLineReadAhead&) = delete;
  ExportLineReadAhead& operator=(const ExportLineReadAhead&) = delete;

  // The next line, std::getline's lines in order; nullptr at the end. Valid until the next call.
  Line* next();

 private:
  struct Batch {
    std::string bytes;
    std::vector<Line> lines;
    bool end = false;
  };

  Batch read_batch();
  void run();

  LineReader reader_;  // the constructing thread's until the thread starts, then the thread's
  const size_t batch_lines_;
  const size_t max_batches_;
  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Batch> ready_;
  std::atomic<size_t> ready_count_ = 0;
  bool stopping_ = false;
  Batch current_;
  size_t at_ = 0;
  bool finished_ = false;
  std::thread thread_;  // started after the first batch when there is more
};

}  // namespace koordq::journal
