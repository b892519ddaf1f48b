#include "api/process_stats.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace koordq::api {
namespace {

std::optional<double> boot_time_seconds() {
  std::ifstream in("/proc/stat");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("btime ", 0) == 0) return std::stod(line.substr(6));
  }
  return std::nullopt;
}

}  // namespace

std::optional<ProcessStats> read_process_stats() {
  std::ifstream in("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name may hold spaces and parentheses: the fields start after the last ')'.
  const size_t close = text.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream fields(text.substr(close + 2));
  std::vector<std::string> f;
  for (std::string field; fields >> field;) f.push_back(field);
  // Field 3 (state) is f[0]; utime is field 14, stime 15, starttime 22, rss 24.
  if (f.size() < 22) return std::nullopt;
  const double ticks = static_cast<double>(sysconf(_SC_CLK_TCK));
  const double page = static_cast<double>(sysconf(_SC_PAGESIZE));
  ProcessStats stats;
  try {
    stats.cpu_seconds = (std::stod(f[11]) + std::stod(f[12])) / ticks;
    stats.resident_bytes = std::stod(f[21]) * page;
    if (auto boot = boot_time_seconds()) stats.start_time_seconds = *boot + std::stod(f[19]) / ticks;
  } catch (...) {
    return std::nullopt;
  }
  std::error_code ec;
  size_t fds = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++fds;
  }
  stats.open_fds = static_cast<double>(fds);
  return stats;
}

}  // namespace koordq::api
