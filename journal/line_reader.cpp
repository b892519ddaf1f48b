#include "journal/line_reader.hpp"

#include <algorithm>
#include <cstring>

namespace koordq::journal {

namespace {

constexpr size_t kFirstBlockBytes = 16 << 10;

}  // namespace

LineReader::LineReader(std::istream& in, size_t block_bytes)
    : in_(in.rdbuf()), block_bytes_(std::max<size_t>(block_bytes, 1)) {
  if (in_ == nullptr || !in.good()) eof_ = true;
  grow(std::min(block_bytes_, kFirstBlockBytes));
}

void LineReader::grow(size_t capacity) {
  std::unique_ptr<char[]> bigger(new char[capacity]);  // uninitialised: only what is read is touched
  if (end_ > 0) std::memcpy(bigger.get(), buffer_.get(), end_);
  buffer_ = std::move(bigger);
  capacity_ = capacity;
}

std::optional<std::string_view> LineReader::next() {
  for (;;) {
    const char* base = buffer_.get();
    if (const void* nl = std::memchr(base + scanned_, '\n', end_ - scanned_)) {
      const size_t at = static_cast<const char*>(nl) - base;
      const std::string_view line(base + begin_, at - begin_);
      begin_ = scanned_ = at + 1;
      return line;
    }
    scanned_ = end_;
    if (eof_) {
      if (begin_ == end_) return std::nullopt;
      const std::string_view line(base + begin_, end_ - begin_);
      begin_ = scanned_ = end_;
      return line;
    }
    // Keep the partial line, at the front, and read after it (a line longer than the buffer grows it).
    std::memmove(buffer_.get(), base + begin_, end_ - begin_);
    end_ -= begin_;
    scanned_ -= begin_;
    begin_ = 0;
    if (end_ == capacity_) grow(capacity_ * 2);
    const size_t wanted = capacity_ - end_;
    const std::streamsize n = in_->sgetn(buffer_.get() + end_, static_cast<std::streamsize>(wanted));
    if (n <= 0) {
      eof_ = true;
    } else {
      end_ += static_cast<size_t>(n);
      // A read that filled the buffer: the stream has more, so read in larger blocks from now on.
      if (static_cast<size_t>(n) == wanted && capacity_ < block_bytes_) grow(std::min(capacity_ * 2, block_bytes_));
    }
  }
}

}  // namespace koordq::journal
