// Byte sizes and retention limits of the journal flags (behaviour.md §21).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::base {

// `<integer><unit>` with unit B, KB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB (powers of
// 1024): `20GiB`, `500MB`, `0B`. The unit is required; a value above int64 bytes is an error.
Result<int64_t> parse_byte_size(std::string_view text);

// The largest unit that divides the size exactly, binary units first: `20GiB`, `1500KB`, `7B`.
std::string format_byte_size(int64_t bytes);

// How much history the journal keeps: an age (`30d`, `720h`) or a size (`20GiB`).
struct Retention {
  enum class Kind { age, size };
  Kind kind = Kind::age;
  int64_t value = 0;  // nanoseconds for an age, bytes for a size

  friend bool operator==(const Retention&, const Retention&) = default;
};

// A size when the text parses as one, otherwise a Go duration that may use `d` (24 h).
Result<Retention> parse_retention(std::string_view text);

// `720h0m0s` for an age (Go's rendering), format_byte_size for a size.
std::string format_retention(const Retention& retention);

}  // namespace koordq::base
