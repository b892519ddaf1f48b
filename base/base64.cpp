#include "base/base64.hpp"

#include <kj/encoding.h>

namespace koordq::base {
namespace {

std::optional<std::string> decode(std::string_view text) {
  const auto bytes = kj::decodeBase64(kj::arrayPtr(text.data(), text.size()));
  if (bytes.hadErrors) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

}  // namespace

std::string base64_encode(std::string_view bytes) {
  const kj::String text =
      kj::encodeBase64(kj::arrayPtr(reinterpret_cast<const kj::byte*>(bytes.data()), bytes.size()), false);
  return std::string(text.begin(), text.size());
}

std::optional<std::string> base64_decode(std::string_view text) {
  auto bytes = decode(text);
  // kj accepts what atob() accepts (missing padding, whitespace, stray bits): re-encoding tells.
  if (!bytes || base64_encode(*bytes) != text) return std::nullopt;
  return bytes;
}

std::optional<std::string> base64_decode_wrapped(std::string_view text) {
  std::string compact;
  compact.reserve(text.size());
  for (const char c : text) {
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') compact.push_back(c);
  }
  if (compact.empty() || compact.size() % 4 != 0) return std::nullopt;
  return decode(compact);
}

}  // namespace koordq::base
