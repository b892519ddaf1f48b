// The exit code of each way `serve` ends (behaviour.md §24).
#pragma once

#include "cmd/exit_codes.hpp"
#include "controller/serve_end.hpp"

namespace koordq::cmd {

inline int exit_code_of(controller::ServeEnd end) {
  switch (end) {
    case controller::ServeEnd::kStopped:
      return kExitSuccess;
    case controller::ServeEnd::kMustRestart:
      return kExitCheckFailed;
    case controller::ServeEnd::kJournalFailed:
      return kExitJournalUnreadable;
    case controller::ServeEnd::kRefused:
      break;
  }
  return kExitUsage;
}

}  // namespace koordq::cmd
