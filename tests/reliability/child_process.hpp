// A child process whose stdout is a pipe the parent reads line by line, and which the parent
// ends with SIGKILL. Used by the crash loop to drive journal_crash_writer.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <sys/types.h>

#include "base/result.hpp"

namespace koordq::reliability {

class ChildProcess {
 public:
  using Clock = std::chrono::steady_clock;

  // stdin is /dev/null, stderr is inherited.
  static Result<ChildProcess> spawn(const std::filesystem::path& program, const std::vector<std::string>& args);
  ChildProcess(ChildProcess&& other) noexcept;
  ChildProcess& operator=(ChildProcess&&) = delete;
  ~ChildProcess();  // kills and reaps a child still running

  // Complete lines (without '\n') that arrive before `deadline`, the child closes stdout, or a
  // line satisfies `stop`.
  std::vector<std::string> read_lines(Clock::time_point deadline,
                                      const std::function<bool(const std::string&)>& stop = {});
  bool stdout_closed() const { return closed_; }

  // SIGKILL, then reap; returns the wait status (which tells whether it had exited before).
  int kill_and_reap();

 private:
  ChildProcess(pid_t pid, int out) : pid_(pid), out_(out) {}

  pid_t pid_ = -1;
  int out_ = -1;
  bool closed_ = false;
  std::string partial_;
};

}  // namespace koordq::reliability
