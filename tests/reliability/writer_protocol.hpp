// The lines the crash-loop writer (journal_writer_main.cpp) prints on stdout, one write(2) each so
// that a SIGKILL never leaves half a line behind:
//   open <last seq>          the journal is open: recovery is done
//   ack <seq> <hash hex>     the record was acknowledged: its group is durable
//   error <message>          opening or an append failed
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "journal/hash_chain.hpp"

namespace koordq::reliability {

struct AckLine {
  uint64_t seq = 0;
  std::string hash_hex;
};

inline std::string open_line(uint64_t last_seq) {
  return "open " + std::to_string(last_seq) + "\n";
}
inline std::string ack_line(uint64_t seq, const journal::Hash& hash) {
  return "ack " + std::to_string(seq) + " " + journal::to_hex(hash) + "\n";
}
inline std::string error_line(std::string_view message) {
  return "error " + std::string(message) + "\n";
}

inline bool is_open_line(std::string_view line) {
  return line.starts_with("open ");
}
inline std::optional<uint64_t> parse_open_line(std::string_view line) {
  if (!is_open_line(line)) return std::nullopt;
  line.remove_prefix(5);
  uint64_t seq = 0;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), seq);
  if (ec != std::errc() || end != line.data() + line.size()) return std::nullopt;
  return seq;
}
inline bool is_error_line(std::string_view line) {
  return line.starts_with("error ");
}

inline std::optional<AckLine> parse_ack_line(std::string_view line) {
  if (!line.starts_with("ack ")) return std::nullopt;
  line.remove_prefix(4);
  const auto space = line.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  AckLine ack;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + space, ack.seq);
  journal::Hash hash;
  const std::string_view hex = line.substr(space + 1);
  if (ec != std::errc() || end != line.data() + space || !journal::from_hex(hex, hash)) return std::nullopt;
  ack.hash_hex = std::string(hex);
  return ack;
}

}  // namespace koordq::reliability
