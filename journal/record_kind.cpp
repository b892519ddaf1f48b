#include "journal/record_kind.hpp"

#include <array>

namespace koordq::journal {
namespace {

constexpr std::array<std::string_view, kRecordKindCount> kNames = {"config", "role",  "relist", "watch",
                                                                   "tick",   "round", "outcome"};

}  // namespace

std::string_view kind_name(RecordKind kind) {
  return kNames[static_cast<size_t>(kind)];
}

std::optional<RecordKind> parse_kind(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<RecordKind>(i);
  }
  return std::nullopt;
}

}  // namespace koordq::journal
