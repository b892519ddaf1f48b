// The kinds of journal record (design.md §2), in the order of the `Record.body` union.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace koordq::journal {

enum class RecordKind : uint8_t { kConfig, kRole, kRelist, kWatch, kTick, kRound, kOutcome };

inline constexpr int kRecordKindCount = 7;

// "config", "role", "relist", "watch", "tick", "round", "outcome"
std::string_view kind_name(RecordKind kind);
std::optional<RecordKind> parse_kind(std::string_view name);

}  // namespace koordq::journal
