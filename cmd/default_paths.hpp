// Default journal locations (behaviour.md §21, §24).
#pragma once

#include <filesystem>
#include <string_view>

namespace koordq::cmd {

inline constexpr std::string_view kDefaultJournalDir = "/var/lib/koordq/journal";
// `serve --simulate`: relative to the working directory, so that a normal user can run it.
inline constexpr std::string_view kSimulateJournalDir = "./koordq-data/journal";

// A running serve's debug listener, `host:port`, written beside the journal it owns so that
// `koordq journal checkpoint` can ask it for a checkpoint (§24.4); removed when serve stops.
inline std::filesystem::path debug_listener_file(const std::filesystem::path& journal_dir) {
  return journal_dir / "serve-debug-listener";
}

}  // namespace koordq::cmd
