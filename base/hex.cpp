#include "base/hex.hpp"

#include <kj/encoding.h>

namespace koordq::base {

std::string hex_encode(std::string_view bytes) {
  const kj::String text = kj::encodeHex(kj::arrayPtr(reinterpret_cast<const kj::byte*>(bytes.data()), bytes.size()));
  return std::string(text.begin(), text.size());
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
