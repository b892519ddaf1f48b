#include "base/hex.hpp"

#include <kj/encoding.h>

namespace koordq::base {

void append_hex(std::string& out, std::string_view bytes) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const size_t start = out.size();
  out.resize(start + bytes.size() * 2);
  char* p = out.data() + start;
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    *p++ = kDigits[b >> 4];
    *p++ = kDigits[b & 0xf];
  }
}

std::string hex_encode(std::string_view bytes) {
  std::string text;
  append_hex(text, bytes);
  return text;
}

std::optional<std::string> hex_decode(std::string_view text) {
  for (const char c : text) {
    if (c >= 'A' && c <= 'F') return std::nullopt;
  }
  const auto bytes = kj::decodeHex(kj::arrayPtr(text.data(), text.size()));
  if (bytes.hadErrors) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

}  // namespace koordq::base
