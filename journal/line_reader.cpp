#include "journal/line_reader.hpp"

#include <cstring>

namespace koordq::journal {

LineReader::LineReader(std::istream& in, size_t block_bytes) : in_(in.rdbuf()), buffer_(block_bytes, '\0') {
  if (in_ == nullptr || !in.good()) eof_ = true;
}

std::optional<std::string_view> LineReader::next() {
  for (;;) {
    const char* base = buffer_.data();
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
    std::memmove(buffer_.data(), base + begin_, end_ - begin_);
    end_ -= begin_;
    scanned_ -= begin_;
    begin_ = 0;
    if (end_ == buffer_.size()) buffer_.resize(buffer_.size() * 2);
    const std::streamsize n = in_->sgetn(buffer_.data() + end_, static_cast<std::streamsize>(buffer_.size() - end_));
    if (n <= 0) {
      eof_ = true;
    } else {
      end_ += static_cast<size_t>(n);
    }
  }
}

}  // namespace koordq::journal
