#include "cmd/stop_signal.hpp"

#include <atomic>
#include <csignal>

namespace koordq::cmd {
namespace {

std::atomic<bool> g_stop{false};

void on_stop_signal(int) {
  g_stop.store(true);
}

}  // namespace

void install_stop_signal_handlers() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

void request_stop() {
  g_stop.store(true);
}

bool stop_requested() {
  return g_stop.load();
}

}  // namespace koordq::cmd
