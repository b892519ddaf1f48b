// RFC 4122 UUIDs in their canonical text (36 lowercase characters), through Boost.Uuid.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace koordq::base {

// Version 4: random (a new journal's uuid, the leader identity).
std::string random_uuid();
// Version 5: the SHA-1 name-based UUID of `name` in koordq's namespace (the version 5 UUID of
// the DNS name `koordq.io`), the same for the same name on every machine.
std::string name_uuid(std::string_view name);
// 16 bytes as they are, version and variant bits included, in the canonical text.
std::string uuid_text(const std::array<uint8_t, 16>& bytes);

}  // namespace koordq::base
