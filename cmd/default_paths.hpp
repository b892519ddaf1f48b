// Default journal locations (behaviour.md §21, §24).
#pragma once

#include <string_view>

namespace koordq::cmd {

inline constexpr std::string_view kDefaultJournalDir = "/var/lib/koordq/journal";
// `serve --simulate`: relative to the working directory, so that a normal user can run it.
inline constexpr std::string_view kSimulateJournalDir = "./koordq-data/journal";

}  // namespace koordq::cmd
