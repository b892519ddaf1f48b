#include "cmd/progress.hpp"

#include <algorithm>
#include <cstdio>

#include <unistd.h>

namespace koordq::cmd {

TerminalProgress::TerminalProgress(std::string label, uint64_t total, std::chrono::seconds plain_interval)
    : label_(std::move(label)),
      total_(total),
      enabled_(::isatty(STDERR_FILENO) == 1),
      plain_interval_(plain_interval),
      last_(std::chrono::steady_clock::now()) {}

TerminalProgress::~TerminalProgress() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void TerminalProgress::update(uint64_t done, uint64_t seq) {
  if (!enabled_) {
    if (plain_interval_ <= std::chrono::seconds::zero()) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < plain_interval_) return;
    last_ = now;
    if (total_ > 0) {
      std::fprintf(stderr, "%s: %llu records (seq %llu), %d%%\n", label_.c_str(), static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(seq), static_cast<int>(std::min(done, total_) * 100 / total_));
    } else {
      std::fprintf(stderr, "%s: %llu records (seq %llu)\n", label_.c_str(), static_cast<unsigned long long>(done),
                   static_cast<unsigned long long>(seq));
    }
    std::fflush(stderr);
    return;
  }
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  drawn_ = true;
  if (total_ > 0) {
    const int width = 30;
    const int filled = static_cast<int>(static_cast<double>(done) / static_cast<double>(total_) * width);
    std::string bar(static_cast<size_t>(std::min(filled, width)), '#');
    bar.resize(width, '.');
    std::fprintf(stderr, "\r%s [%s] %3d%% %llu records (seq %llu)\033[K", label_.c_str(), bar.c_str(),
                 static_cast<int>(done * 100 / total_), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(seq));
  } else {
    std::fprintf(stderr, "\r%s %llu records (seq %llu)\033[K", label_.c_str(), static_cast<unsigned long long>(done),
                 static_cast<unsigned long long>(seq));
  }
  std::fflush(stderr);
}

}  // namespace koordq::cmd
