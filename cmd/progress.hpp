// Progress of long offline work (export, verify, replay) on stderr. On a terminal: one line
// redrawn at most ten times a second, cleared when the work ends. Elsewhere nothing, unless the
// command asks for plain lines: then one line `<label>: <n> records (seq <s>)[, <p>%]` at most
// once per `plain_interval`, so that a log shows a long run advancing.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace koordq::cmd {

// Off a terminal, the long offline commands (replay, at) print a progress line this often.
inline constexpr std::chrono::seconds kPlainProgressEvery{10};

class TerminalProgress {
 public:
  // `total` 0 means unknown (no percentage).
  TerminalProgress(std::string label, uint64_t total,
                   std::chrono::seconds plain_interval = std::chrono::seconds::zero());
  ~TerminalProgress();
  void update(uint64_t done, uint64_t seq);

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_;
  std::chrono::seconds plain_interval_;
  bool drawn_ = false;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace koordq::cmd
