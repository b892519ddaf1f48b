// journal::LineReader: the lines std::getline returns, whatever the block size, however the
// stream hands out its bytes, and however long a line is.
#include "journal/line_reader.hpp"

#include <algorithm>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace koordq::journal {
namespace {

// A stream buffer that hands out at most `piece` bytes per read, as a pipe does.
class PiecewiseBuf : public std::streambuf {
 public:
  PiecewiseBuf(std::string text, size_t piece) : text_(std::move(text)), piece_(piece) {}

 protected:
  std::streamsize xsgetn(char* out, std::streamsize n) override {
    const size_t count = std::min({static_cast<size_t>(n), piece_, text_.size() - at_});
    std::copy_n(text_.data() + at_, count, out);
    at_ += count;
    return static_cast<std::streamsize>(count);
  }
  int_type underflow() override {
    return at_ < text_.size() ? traits_type::to_int_type(text_[at_]) : traits_type::eof();
  }

 private:
  std::string text_;
  size_t piece_;
  size_t at_ = 0;
};

std::vector<std::string> getline_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<std::string> read_lines(std::istream& in, size_t block_bytes) {
  std::vector<std::string> out;
  LineReader reader(in, block_bytes);
  while (auto line = reader.next()) out.emplace_back(*line);
  return out;
}

std::vector<std::string> texts() {
  std::string long_line(100'000, 'x');
  for (size_t i = 0; i < long_line.size(); i += 7) long_line[i] = static_cast<char>('a' + i % 26);
  return {"",
          "\n",
          "\n\n\n",
          "one",
          "one\n",
          "one\ntwo",
          "one\ntwo\n",
          "a\r\nb\r\n",
          "\nleading empty\n\nand inner empty\n\n",
          long_line,
          long_line + "\n" + long_line.substr(0, 5'000) + "\nshort\n" + long_line + "\n",
          std::string(70'000, '\n')};
}

TEST(LineReader, returns_what_getline_returns_for_every_block_size) {
  for (const std::string& text : texts()) {
    for (size_t block : {size_t{1}, size_t{3}, size_t{64}, size_t{16 << 10}, size_t{1 << 20}}) {
      std::istringstream in(text);
      EXPECT_EQ(read_lines(in, block), getline_lines(text)) << "block " << block << ", " << text.size() << " bytes";
    }
  }
}

TEST(LineReader, returns_what_getline_returns_when_the_stream_hands_out_short_reads) {
  for (const std::string& text : texts()) {
    for (size_t piece : {size_t{1}, size_t{5}, size_t{4096}, size_t{65'537}}) {
      PiecewiseBuf buf(text, piece);
      std::istream in(&buf);
      EXPECT_EQ(read_lines(in, 1 << 20), getline_lines(text))
          << "pieces of " << piece << ", " << text.size() << " bytes";
    }
  }
}

TEST(LineReader, a_stream_in_a_failed_state_has_no_lines) {
  std::istringstream in("one\ntwo\n");
  in.setstate(std::ios::failbit);
  EXPECT_EQ(read_lines(in, 1 << 20), std::vector<std::string>{});
}

}  // namespace
}  // namespace koordq::journal
