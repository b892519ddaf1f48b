#include "base/json_string.hpp"

#include <array>
#include <cstdint>
#include <cstring>

namespace koordq::base {
namespace {

// RapidJSON's Writer escapes: the two-character forms where JSON has one, \u00XX for other
// control characters; '/' and bytes ≥ 0x20 stay as they are.
constexpr std::array<char, 256> kEscapes = [] {
  std::array<char, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = 'u';
  table['\b'] = 'b';
  table['\f'] = 'f';
  table['\n'] = 'n';
  table['\r'] = 'r';
  table['\t'] = 't';
  table['"'] = '"';
  table['\\'] = '\\';
  return table;
}();

// Whether any of the 8 bytes needs an escape: below 0x20, '"' or '\\' (bit tricks from
// "Bit Twiddling Hacks": a byte is flagged when subtracting borrows into its top bit).
bool needs_escape(uint64_t bytes) {
  constexpr uint64_t kOnes = 0x0101010101010101;
  constexpr uint64_t kHighBits = 0x8080808080808080;
  auto has_zero = [](uint64_t v) { return (v - kOnes) & ~v & kHighBits; };
  uint64_t below_space = (bytes - kOnes * 0x20) & ~bytes & kHighBits;
  return (below_space | has_zero(bytes ^ (kOnes * '"')) | has_zero(bytes ^ (kOnes * '\\'))) != 0;
}

bool needs_escape(std::string_view text) {
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t chunk;
    std::memcpy(&chunk, text.data() + i, 8);
    if (needs_escape(chunk)) return true;
  }
  for (; i < text.size(); ++i) {
    if (kEscapes[static_cast<unsigned char>(text[i])] != 0) return true;
  }
  return false;
}

}  // namespace

char* write_json_string(char* cursor, std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  *cursor++ = '"';
  size_t i = 0;
  while (i < text.size()) {
    if (i + 8 <= text.size()) {
      uint64_t chunk;
      std::memcpy(&chunk, text.data() + i, 8);
      if (!needs_escape(chunk)) {
        std::memcpy(cursor, &chunk, 8);
        cursor += 8;
        i += 8;
        continue;
      }
    }
    char c = text[i++];
    char escape = kEscapes[static_cast<unsigned char>(c)];
    if (escape == 0) {
      *cursor++ = c;
    } else if (escape != 'u') {
      *cursor++ = '\\';
      *cursor++ = escape;
    } else {
      unsigned char code = static_cast<unsigned char>(c);
      const char unicode[] = {'\\', 'u', '0', '0', kHex[code >> 4], kHex[code & 0xF]};
      std::memcpy(cursor, unicode, sizeof unicode);
      cursor += sizeof unicode;
    }
  }
  *cursor++ = '"';
  return cursor;
}

void append_json_string(std::string& out, std::string_view text) {
  if (!needs_escape(text)) {
    // The common case (hashes, base64, names): copied whole, no room for the worst case asked.
    out.push_back('"');
    out.append(text);
    out.push_back('"');
    return;
  }
  const size_t used = out.size();
  out.resize(used + json_string_room(text.size()));
  char* const start = out.data() + used;
  out.resize(used + static_cast<size_t>(write_json_string(start, text) - start));
}

}  // namespace koordq::base
