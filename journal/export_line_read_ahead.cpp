#include "journal/export_line_read_ahead.hpp"

#include "journal/export_line.hpp"
#include "journal/line_reader.hpp"

namespace koordq::journal {

ExportLineReadAhead::ExportLineReadAhead(std::istream& in, size_t batch_lines, size_t max_batches)
    : reader_(in), batch_lines_(batch_lines > 0 ? batch_lines : 1), max_batches_(max_batches > 0 ? max_batches : 1) {
  current_ = read_batch();
  if (!current_.end) thread_ = std::thread([this] { run(); });
}

ExportLineReadAhead::~ExportLineReadAhead() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

ExportLineReadAhead::Line* ExportLineReadAhead::next() {
  while (at_ == current_.lines.size()) {
    if (current_.end || finished_) {
      finished_ = true;
      return nullptr;
    }
    std::unique_lock lock(mu_);
    changed_.wait(lock, [&] { return !ready_.empty(); });
    current_ = std::move(ready_.front());
    ready_.pop_front();
    ready_count_.store(ready_.size(), std::memory_order_relaxed);
    at_ = 0;
    changed_.notify_all();
  }
  Line& line = current_.lines[at_++];
  line.text = std::string_view(current_.bytes).substr(line.offset, line.text.size());
  if (!line.matched) {
    line.rendered = record_of_rendered_line(line.text);
    line.matched = true;
  }
  return &line;
}

ExportLineReadAhead::Batch ExportLineReadAhead::read_batch() {
  Batch batch;
  batch.lines.reserve(batch_lines_);
  while (batch.lines.size() < batch_lines_) {
    const auto text = reader_.next();
    if (!text) {
      batch.end = true;
      break;
    }
    Line& line = batch.lines.emplace_back();
    line.offset = batch.bytes.size();
    line.text = *text;  // its size; the consumer points it into the batch's bytes
    batch.bytes.append(*text);
  }
  return batch;
}

void ExportLineReadAhead::run() {
  for (;;) {
    Batch batch = read_batch();
    if (ready_count_.load(std::memory_order_relaxed) >= 2) {
      for (Line& line : batch.lines) {
        line.rendered = record_of_rendered_line(std::string_view(batch.bytes).substr(line.offset, line.text.size()));
        line.matched = true;
      }
    }
    const bool last = batch.end;
    {
      std::unique_lock lock(mu_);
      changed_.wait(lock, [&] { return stopping_ || ready_.size() < max_batches_; });
      if (stopping_) return;
      ready_.push_back(std::move(batch));
      ready_count_.store(ready_.size(), std::memory_order_relaxed);
      changed_.notify_all();
    }
    if (last) return;
  }
}

}  // namespace koordq::journal
