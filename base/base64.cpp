#include "base/base64.hpp"

#include <algorithm>

#include <kj/encoding.h>
#include <openssl/evp.h>

namespace koordq::base {
namespace {

// EVP_*Block take an int length: longer input goes in pieces of whole groups.
constexpr size_t kPieceGroups = 1 << 20;

std::optional<std::string> decode_wrapped(std::string_view text) {
  const auto bytes = kj::decodeBase64(kj::arrayPtr(text.data(), text.size()));
  if (bytes.hadErrors) return std::nullopt;
  return std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size());
}

// Padded base64 of whole groups. EVP_DecodeBlock accepts more than base64_encode writes ('=' inside,
// surrounding whitespace) and counts the padding as zero bytes; the caller's re-encoding decides.
std::optional<std::string> decode_groups(std::string_view text) {
  if (text.size() % 4 != 0) return std::nullopt;
  std::string out(text.size() / 4 * 3, '\0');
  size_t written = 0;
  for (size_t at = 0; at < text.size(); at += kPieceGroups * 4) {
    const size_t n = std::min(text.size() - at, kPieceGroups * 4);
    const int decoded = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data() + written),
                                        reinterpret_cast<const unsigned char*>(text.data() + at), static_cast<int>(n));
    if (decoded < 0) return std::nullopt;
    written += static_cast<size_t>(decoded);
  }
  const size_t padding = text.ends_with("==") ? 2 : text.ends_with('=') ? 1 : 0;
  out.resize(std::min(written, out.size()) - std::min(padding, written));
  return out;
}

}  // namespace

void append_base64(std::string& out, std::string_view bytes) {
  const size_t start = out.size();
  out.resize(start + (bytes.size() + 2) / 3 * 4 + 1);  // EVP_EncodeBlock ends with a NUL
  size_t written = 0;
  for (size_t at = 0; at < bytes.size(); at += kPieceGroups * 3) {
    const size_t n = std::min(bytes.size() - at, kPieceGroups * 3);
    written += static_cast<size_t>(EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data() + start + written),
                                                   reinterpret_cast<const unsigned char*>(bytes.data() + at),
                                                   static_cast<int>(n)));
  }
  out.resize(start + written);
}

std::string base64_encode(std::string_view bytes) {
  std::string text;
  append_base64(text, bytes);
  return text;
}

std::optional<std::string> base64_decode(std::string_view text) {
  auto bytes = decode_groups(text);
  // Only the one spelling base64_encode writes: re-encoding tells.
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
  return decode_wrapped(compact);
}

}  // namespace koordq::base
