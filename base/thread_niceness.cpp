#include "base/thread_niceness.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/log.hpp"

namespace koordq::base {

void set_thread_niceness(int niceness) {
  const auto tid = static_cast<id_t>(::syscall(SYS_gettid));
  if (::setpriority(PRIO_PROCESS, tid, niceness) == 0) return;
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) KQ_LOG_WARNING("cannot set a serving thread's niceness: {}", std::strerror(errno));
}

}  // namespace koordq::base
