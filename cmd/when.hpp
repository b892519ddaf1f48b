// WHEN, the point in a journal's history the offline commands read (behaviour.md §24): an RFC 3339
// time (`2026-04-20T10:00:00.250+02:00`) or a revision `rev:N` with N >= 1. Whether it lies inside
// the retained history is for the command that opens the journal to say.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::cmd {

struct When {
  enum class Kind { time, revision };
  Kind kind = Kind::revision;
  int64_t unix_nanos = 0;  // Kind::time
  uint64_t revision = 0;   // Kind::revision
  std::string text;        // as given: messages quote it

  friend bool operator==(const When&, const When&) = default;
};

// On failure the error is the requirement, to follow `invalid value "<v>" for <flag>: `.
Result<When> parse_when(std::string_view text);

}  // namespace koordq::cmd
