// The exit codes of every koordq command (behaviour.md §24).
#pragma once

namespace koordq::cmd {

inline constexpr int kExitSuccess = 0;
// A check failed (verify divergence, broken chain), or the object asked for does not exist.
inline constexpr int kExitCheckFailed = 1;
// Unknown command or flag, invalid value, WHEN out of range, malformed import input.
inline constexpr int kExitUsage = 2;
// The journal or export is unreadable or corrupt, or cannot be opened for writing.
inline constexpr int kExitJournalUnreadable = 3;

}  // namespace koordq::cmd
