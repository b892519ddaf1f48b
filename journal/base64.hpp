// Standard base64 (RFC 4648, with padding) for the canonical bytes in exports.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace koordq::journal {

std::string base64_encode(std::string_view bytes);
// std::nullopt when `text` is not canonical padded base64.
std::optional<std::string> base64_decode(std::string_view text);

}  // namespace koordq::journal
