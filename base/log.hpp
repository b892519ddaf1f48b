// klog-format logging on stderr (behaviour.md §20):
//   I0420 08:00:01.250000   12345 serve_command.cpp:42] became leader
// severity letter (I W E F), local date and time with microseconds, thread id, the call site's file
// name and line, then the message. Messages use fmt syntax and are checked at compile time:
//   KQ_LOG_INFO("became leader");
//   KQ_LOG_WARNING("flag {} is ignored", name);
//   KQ_V(3)("attempt for {}/{}: {}", ns, name, outcome);   // only when --v >= 3
// KQ_V evaluates its arguments and formats only when its level is enabled. Thread-safe.
// Never log secrets: tokens, keys, kubeconfig contents, env values of watched objects.
#pragma once

#include <atomic>
#include <string_view>
#include <utility>

#include <fmt/format.h>

namespace koordq::base {

enum class LogSeverity { info, warning, error, fatal };

// `--v`: messages of KQ_V(level) appear when level <= the verbosity. Default 0.
void set_log_verbosity(int verbosity);
int log_verbosity();

namespace log_detail {

inline std::atomic<int> verbosity{0};

void write(LogSeverity severity, const char* file, int line, std::string_view message);
[[noreturn]] void write_fatal(const char* file, int line, std::string_view message);

consteval const char* basename(const char* path) {
  const char* name = path;
  for (const char* p = path; *p != '\0'; ++p) {
    if (*p == '/') name = p + 1;
  }
  return name;
}

struct CallSite {
  constexpr CallSite(LogSeverity severity, const char* file, int line) : severity(severity), file(file), line(line) {}

  LogSeverity severity;
  const char* file;
  int line;

  template <class... Args>
  void operator()(fmt::format_string<Args...> format, Args&&... args) const {
    write(severity, file, line, fmt::format(format, std::forward<Args>(args)...));
  }
};

struct FatalCallSite {
  constexpr FatalCallSite(const char* file, int line) : file(file), line(line) {}

  const char* file;
  int line;

  template <class... Args>
  [[noreturn]] void operator()(fmt::format_string<Args...> format, Args&&... args) const {
    write_fatal(file, line, fmt::format(format, std::forward<Args>(args)...));
  }
};

}  // namespace log_detail

inline bool log_enabled(int level) {
  return level <= log_detail::verbosity.load(std::memory_order_relaxed);
}

}  // namespace koordq::base

// Parentheses rather than braces keep the expansion usable inside other macros' arguments.
#define KQ_LOG_AT_(severity) \
  ::koordq::base::log_detail::CallSite(severity, ::koordq::base::log_detail::basename(__FILE__), __LINE__)

#define KQ_LOG_INFO(...) KQ_LOG_AT_(::koordq::base::LogSeverity::info)(__VA_ARGS__)
#define KQ_LOG_WARNING(...) KQ_LOG_AT_(::koordq::base::LogSeverity::warning)(__VA_ARGS__)
#define KQ_LOG_ERROR(...) KQ_LOG_AT_(::koordq::base::LogSeverity::error)(__VA_ARGS__)
// Logs with severity F, flushes and ends the process with exit code 255, as klog.Fatal does.
#define KQ_LOG_FATAL(...) \
  ::koordq::base::log_detail::FatalCallSite(::koordq::base::log_detail::basename(__FILE__), __LINE__)(__VA_ARGS__)

// A one-pass loop rather than an if/else, so that `if (x) KQ_V(2)(...); else ...` binds as written.
#define KQ_V(level)                                                                                         \
  for (bool kq_log_enabled_ = ::koordq::base::log_enabled(level); kq_log_enabled_; kq_log_enabled_ = false) \
  KQ_LOG_AT_(::koordq::base::LogSeverity::info)
