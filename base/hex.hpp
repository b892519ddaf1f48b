// Lowercase hexadecimal text of bytes (hashes, digests, key ids), through kj's encoding.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace koordq::base {

// Two lowercase digits per byte.
std::string hex_encode(std::string_view bytes);
// The bytes of `text` when it is lowercase hex with an even number of digits, else std::nullopt:
// what hex_encode writes is the only spelling accepted, so a hash has one text.
std::optional<std::string> hex_decode(std::string_view text);

}  // namespace koordq::base
