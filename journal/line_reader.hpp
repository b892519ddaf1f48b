// The lines of a stream, read in large blocks: what std::getline returns (split at '\n', a last
// line without one included), but at the speed of the stream buffer's block reads. On std::cin
// that matters most: synchronised with stdio, its getline reads a character at a time
// (BENCHMARKS.md, "Export and verify": verify --export - was 4.5x slower than from a file).
// The buffer starts small and doubles up to the block size while reads fill it, and is never
// zero-filled: a short input touches only the memory it needs.
#pragma once

#include <cstddef>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace koordq::journal {

class LineReader {
 public:
  explicit LineReader(std::istream& in, size_t block_bytes = 1 << 20);
  // The next line without its '\n', valid until the next call; std::nullopt at the end.
  std::optional<std::string_view> next();

 private:
  void grow(size_t capacity);

  std::streambuf* in_;
  const size_t block_bytes_;
  std::unique_ptr<char[]> buffer_;
  size_t capacity_ = 0;
  size_t begin_ = 0;  // the unread bytes are [begin_, end_)
  size_t end_ = 0;
  size_t scanned_ = 0;  // [begin_, scanned_) holds no '\n'
  bool eof_ = false;
};

}  // namespace koordq::journal
