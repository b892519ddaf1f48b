// The process_* families of behaviour.md §15.2, read from /proc/self.
#pragma once

#include <optional>

namespace koordq::api {

struct ProcessStats {
  double cpu_seconds = 0;  // user + system
  double resident_bytes = 0;
  double start_time_seconds = 0;  // Unix seconds
  double open_fds = 0;
};

std::optional<ProcessStats> read_process_stats();

}  // namespace koordq::api
