#include "base/log.hpp"

#include <cstdlib>
#include <memory>

#include <spdlog/logger.h>
#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace koordq::base {
namespace {

// spdlog's own short level names (I W E C) differ from klog's, so the letter is a custom flag.
class SeverityLetter final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& message, const std::tm&, spdlog::memory_buf_t& dest) override {
    dest.push_back(letter(message.level));
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<SeverityLetter>(); }

 private:
  static char letter(spdlog::level::level_enum level) {
    switch (level) {
      case spdlog::level::warn:
        return 'W';
      case spdlog::level::err:
        return 'E';
      case spdlog::level::critical:
        return 'F';
      default:
        return 'I';
    }
  }
};

spdlog::level::level_enum spdlog_level(LogSeverity severity) {
  switch (severity) {
    case LogSeverity::warning:
      return spdlog::level::warn;
    case LogSeverity::error:
      return spdlog::level::err;
    case LogSeverity::fatal:
      return spdlog::level::critical;
    case LogSeverity::info:
      break;
  }
  return spdlog::level::info;
}

spdlog::logger& klog_logger() {
  static const std::shared_ptr<spdlog::logger> logger = [] {
    auto created = std::make_shared<spdlog::logger>("koordq", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    // klog pads the thread id to 7 columns, right-aligned.
    formatter->add_flag<SeverityLetter>('*').set_pattern("%*%m%d %H:%M:%S.%f %7t %s:%#] %v");
    created->set_formatter(std::move(formatter));
    created->set_level(spdlog::level::trace);
    created->flush_on(spdlog::level::trace);
    return created;
  }();
  return *logger;
}

}  // namespace

void set_log_verbosity(int verbosity) {
  log_detail::verbosity.store(verbosity, std::memory_order_relaxed);
}

int log_verbosity() {
  return log_detail::verbosity.load(std::memory_order_relaxed);
}

namespace log_detail {

void write(LogSeverity severity, const char* file, int line, std::string_view message) {
  klog_logger().log(spdlog::source_loc{file, line, ""}, spdlog_level(severity), message);
}

void write_fatal(const char* file, int line, std::string_view message) {
  write(LogSeverity::fatal, file, line, message);
  klog_logger().flush();
  std::_Exit(255);
}

}  // namespace log_detail
}  // namespace koordq::base
