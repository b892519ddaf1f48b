// How `serve` ends; cmd/ maps each to its exit code (behaviour.md §19, §24).
#pragma once

namespace koordq::controller {

enum class ServeEnd {
  kStopped,        // a stop was asked for (SIGTERM/SIGINT) or the simulation's duration ran out
  kMustRestart,    // leading was lost, or the election failed for good: start from a clean state
  kJournalFailed,  // the journal cannot be written or read back, or the state cannot fold it
  kRefused,        // a listener, the cluster identity or a setting refused the start
};

}  // namespace koordq::controller
