// The wall clock of the commands, in Unix nanoseconds (the decision logic never reads a clock).
#pragma once

#include <chrono>
#include <cstdint>

namespace koordq::cmd {

inline int64_t wall_now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace koordq::cmd
