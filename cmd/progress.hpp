// Progress of long offline work (export, verify, replay) on stderr, only when stderr is a
// terminal: one line redrawn at most ten times a second, cleared when the work ends.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace koordq::cmd {

class TerminalProgress {
 public:
  // `total` 0 means unknown (no percentage).
  TerminalProgress(std::string label, uint64_t total);
  ~TerminalProgress();
  void update(uint64_t done, uint64_t seq);

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace koordq::cmd
