// Lowercase hexadecimal text of bytes (hashes, digests, key ids): written by a table lookup per
// byte (what export lines are made of, BENCHMARKS.md "Export and verify"), read through kj's decoding.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace koordq::base {

// Two lowercase digits per byte.
std::string hex_encode(std::string_view bytes);
// The same digits appended to `out`.
void append_hex(std::string& out, std::string_view bytes);
// The bytes of `text` when it is lowercase hex with an even number of digits, else std::nullopt:
// what hex_encode writes is the only spelling accepted, so a hash has one text.
std::optional<std::string> hex_decode(std::string_view text);

}  // namespace koordq::base
