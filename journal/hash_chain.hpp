// The journal's SHA-256 hash chain (design.md §5):
//   hash(n) = SHA-256(prevHash(n) ‖ B(n)),  prevHash(1) = SHA-256(journal UUID),
// where B is the record's canonical Cap'n Proto encoding with `hash` unset.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace koordq::journal {

using Hash = std::array<uint8_t, 32>;

Hash sha256(std::string_view bytes);
Hash chain_hash(const Hash& prev, std::string_view canonical_bytes);
Hash genesis_hash(std::string_view journal_uuid);

std::string to_hex(const Hash& h);
bool from_hex(std::string_view hex, Hash& out);
std::string_view as_bytes(const Hash& h);
bool from_bytes(std::string_view bytes, Hash& out);

}  // namespace koordq::journal
