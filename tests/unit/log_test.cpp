#include "base/log.hpp"

#include <ctime>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace koordq::base {
namespace KOORDQ_TEST_LOCAL {

// behaviour.md §20: `<severity><MMDD> <hh:mm:ss.uuuuuu> <thread id> <file>:<line>] <message>`.
struct KlogLine {
  char severity;
  std::string mmdd;
  std::string file;
  std::string line;
  std::string message;
};

// (std::regex trips a GCC 12 -Wmaybe-uninitialized false positive under the sanitizers.)
std::optional<KlogLine> parse_klog(const std::string& text) {
  // `I0420 08:00:01.250000 ` is fixed-width.
  const std::string shape = "X0000 00:00:00.000000 ";
  if (text.size() < shape.size() || std::string("IWEF").find(text[0]) == std::string::npos) return std::nullopt;
  for (size_t i = 1; i < shape.size(); ++i) {
    const bool digit = text[i] >= '0' && text[i] <= '9';
    if (shape[i] == '0' ? !digit : text[i] != shape[i]) return std::nullopt;
  }
  size_t pos = text.find_first_not_of(' ', shape.size());
  const size_t thread_end = text.find(' ', pos);
  if (pos == std::string::npos || thread_end == std::string::npos || thread_end == pos) return std::nullopt;
  for (size_t i = pos; i < thread_end; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  }
  const size_t colon = text.find(':', thread_end + 1);
  const size_t bracket = text.find("] ", thread_end + 1);
  if (colon == std::string::npos || bracket == std::string::npos || colon > bracket) return std::nullopt;
  return KlogLine{text[0], text.substr(1, 4), text.substr(thread_end + 1, colon - thread_end - 1),
                  text.substr(colon + 1, bracket - colon - 1), text.substr(bracket + 2)};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class Log : public ::testing::Test {
 protected:
  void SetUp() override { set_log_verbosity(0); }
  void TearDown() override { set_log_verbosity(0); }
};

TEST_F(Log, info_line_has_the_klog_header_with_the_call_site) {
  ::testing::internal::CaptureStderr();
  const int line = __LINE__ + 1;
  KQ_LOG_INFO("queue {} has {} units", "team-a", 3);
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStderr());
  ASSERT_EQ(lines.size(), 1u);
  const std::optional<KlogLine> parsed = parse_klog(lines[0]);
  ASSERT_TRUE(parsed.has_value()) << lines[0];
  EXPECT_EQ(parsed->severity, 'I');
  EXPECT_EQ(parsed->file, "log_test.cpp");
  EXPECT_EQ(parsed->line, std::to_string(line));
  EXPECT_EQ(parsed->message, "queue team-a has 3 units");

  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char mmdd[5];
  std::strftime(mmdd, sizeof mmdd, "%m%d", &local);
  EXPECT_EQ(parsed->mmdd, mmdd);
}

TEST_F(Log, thread_id_is_right_aligned_in_seven_columns) {
  ::testing::internal::CaptureStderr();
  KQ_LOG_INFO("x");
  const std::string line = ::testing::internal::GetCapturedStderr();
  // `I0420 08:00:01.250000 ` is 22 characters; the thread id fills at least the next 7.
  ASSERT_GT(line.size(), 30u);
  const size_t end = line.find(' ', line.find_first_not_of(' ', 22));
  EXPECT_GE(end - 22, 7u) << line;
}

TEST_F(Log, severities_are_i_w_e) {
  ::testing::internal::CaptureStderr();
  KQ_LOG_INFO("i");
  KQ_LOG_WARNING("w");
  KQ_LOG_ERROR("e");
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStderr());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(parse_klog(lines[0])->severity, 'I');
  EXPECT_EQ(parse_klog(lines[1])->severity, 'W');
  EXPECT_EQ(parse_klog(lines[2])->severity, 'E');
}

TEST_F(Log, fatal_logs_with_f_and_exits_255) {
  EXPECT_EXIT(KQ_LOG_FATAL("journal {} is gone", "x"), ::testing::ExitedWithCode(255),
              "F[0-9]{4} .*\\] journal x is gone");
}

TEST_F(Log, a_verbose_message_appears_when_v_reaches_its_level) {
  set_log_verbosity(2);
  ::testing::internal::CaptureStderr();
  KQ_V(2)("level {}", 2);
  KQ_V(3)("level {}", 3);
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStderr());
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("] level 2"), std::string::npos);
  EXPECT_EQ(lines[0][0], 'I');
}

TEST_F(Log, a_disabled_verbose_message_evaluates_nothing) {
  int evaluated = 0;
  auto expensive = [&] { return ++evaluated; };
  ::testing::internal::CaptureStderr();
  KQ_V(1)("{}", expensive());
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(evaluated, 0);
  set_log_verbosity(1);
  ::testing::internal::CaptureStderr();
  KQ_V(1)("{}", expensive());
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(evaluated, 1);
}

TEST_F(Log, verbose_message_binds_like_a_single_statement) {
  bool else_taken = false;
  ::testing::internal::CaptureStderr();
  if (false)
    KQ_V(0)("never");
  else
    else_taken = true;
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_TRUE(else_taken);
}

TEST_F(Log, concurrent_messages_stay_whole_lines) {
  constexpr int kThreads = 4;
  constexpr int kMessages = 200;
  ::testing::internal::CaptureStderr();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t] {
      for (int i = 0; i < kMessages; ++i) KQ_LOG_INFO("thread {} message {} {}", t, i, std::string(100, 'x'));
    });
  }
  for (std::thread& thread : threads) thread.join();
  const std::vector<std::string> lines = lines_of(::testing::internal::GetCapturedStderr());
  ASSERT_EQ(lines.size(), static_cast<size_t>(kThreads * kMessages));
  for (const std::string& line : lines) ASSERT_TRUE(parse_klog(line).has_value()) << line;
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::base
