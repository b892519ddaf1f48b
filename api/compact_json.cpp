#include "api/compact_json.hpp"

#include <array>

#include <emmintrin.h>

namespace koordq::api {
namespace {

// What follows the backslash for a byte that must be escaped, 0 for one written as is.
constexpr std::array<char, 256> kEscape = [] {
  std::array<char, 256> table{};
  for (int c = 0; c < 0x20; ++c) table[c] = 'u';
  table['\b'] = 'b';
  table['\t'] = 't';
  table['\n'] = 'n';
  table['\f'] = 'f';
  table['\r'] = 'r';
  table['"'] = '"';
  table['\\'] = '\\';
  return table;
}();

// The length of the prefix of [p, end) with nothing to escape.
size_t plain_prefix(const char* p, const char* end) {
  const char* const begin = p;
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i below_space = _mm_set1_epi8(0x1F);
  for (; end - p >= 16; p += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Unsigned v <= 0x1F: min(v, 0x1F) == v.
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, below_space), v);
    const __m128i hits = _mm_or_si128(control, _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    if (const int mask = _mm_movemask_epi8(hits); mask != 0)
      return static_cast<size_t>(p - begin) + __builtin_ctz(mask);
  }
  while (p < end && kEscape[static_cast<unsigned char>(*p)] == 0) ++p;
  return static_cast<size_t>(p - begin);
}

}  // namespace

void CompactJson::quoted(std::string_view s, char suffix) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  // At most 6 bytes per input byte (\u00XX), the separator, two quotes and the suffix.
  char* at = room(6 * s.size() + 4);
  if (comma_) *at++ = ',';
  *at++ = '"';
  const char* p = s.data();
  const char* const end = p + s.size();
  while (p < end) {
    const size_t plain = plain_prefix(p, end);
    std::memcpy(at, p, plain);
    at += plain;
    p += plain;
    if (p == end) break;
    const auto c = static_cast<unsigned char>(*p++);
    const char escape = kEscape[c];
    *at++ = '\\';
    *at++ = escape;
    if (escape == 'u') {
      *at++ = '0';
      *at++ = '0';
      *at++ = kHex[c >> 4];
      *at++ = kHex[c & 0xF];
    }
  }
  *at++ = '"';
  if (suffix != 0) *at++ = suffix;
  used_ = static_cast<size_t>(at - out_.data());
}

}  // namespace koordq::api
