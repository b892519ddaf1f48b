// The crash loop (issue "Journal", reliability): a writer process appends from several threads
// and prints each acknowledgement; it is SIGKILLed at a random moment, then the journal is
// reopened and audited (journal_audit.hpp), over and over on the same journal.
// KOORDQ_CRASH_KILLS sets the number of kills (default 50; scripts/crash-loop.sh runs 500),
// KOORDQ_CRASH_SEED the seed of the kill delays (default: from the clock; always printed).
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "tests/reliability/child_process.hpp"
#include "tests/reliability/journal_audit.hpp"
#include "tests/reliability/writer_protocol.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::reliability {
namespace KOORDQ_TEST_LOCAL {

using Clock = ChildProcess::Clock;
using std::chrono::milliseconds;

constexpr std::chrono::seconds kOpenTimeout(30);
constexpr std::chrono::seconds kDrainTimeout(10);
constexpr uint64_t kProgressEvery = 50;

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

struct CycleResult {
  std::optional<uint64_t> opened_at;  // the last seq the writer found, once it opened the journal
};

// Reads what the writer printed, adding its acknowledgements to `acked`.
void take_lines(const std::vector<std::string>& lines, AckedRecords& acked, CycleResult& cycle) {
  for (const auto& line : lines) {
    if (auto last_seq = parse_open_line(line)) {
      cycle.opened_at = last_seq;
    } else if (auto ack = parse_ack_line(line)) {
      const auto [it, inserted] = acked.emplace(ack->seq, ack->hash_hex);
      if (!inserted && it->second != ack->hash_hex) {
        ADD_FAILURE() << "seq " << ack->seq << " was acknowledged twice, with hashes " << it->second << " and "
                      << ack->hash_hex;
      }
    } else {
      ADD_FAILURE() << "the writer printed: " << line;
    }
  }
}

TEST(CrashLoop, a_killed_writer_loses_no_acknowledged_record_and_leaves_a_journal_that_opens_clean) {
  const uint64_t kills = env_or("KOORDQ_CRASH_KILLS", 50);
  const uint64_t seed =
      env_or("KOORDQ_CRASH_SEED", static_cast<uint64_t>(Clock::now().time_since_epoch().count()) % 1'000'000'007);
  std::printf("crash loop: %llu kills, KOORDQ_CRASH_SEED=%llu\n", static_cast<unsigned long long>(kills),
              static_cast<unsigned long long>(seed));
  RecordProperty("seed", std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> delay_ms(5, 200);

  testing::TempDir scratch;
  const auto dir = scratch / "journal";
  AckedRecords acked;
  uint64_t last_seq = 0, kills_while_appending = 0, truncated = 0, head_file_lag = 0;
  const auto start = Clock::now();
  for (uint64_t kill = 1; kill <= kills; ++kill) {
    SCOPED_TRACE("kill " + std::to_string(kill) + " of the run with KOORDQ_CRASH_SEED=" + std::to_string(seed));
    // One kill in five counts its delay from the start, so that it may land during recovery;
    // the others count from the open, so that they land among appends.
    const bool from_start = rng() % 5 == 0;
    const milliseconds delay(delay_ms(rng));
    auto writer = ChildProcess::spawn(KOORDQ_CRASH_WRITER, {dir.string(), std::to_string(rng())});
    ASSERT_TRUE(writer.ok()) << writer.message();
    CycleResult cycle;
    if (!from_start) {
      take_lines(writer->read_lines(Clock::now() + kOpenTimeout, is_open_line), acked, cycle);
      ASSERT_TRUE(cycle.opened_at) << "the writer did not open the journal within " << kOpenTimeout.count() << " s";
    }
    take_lines(writer->read_lines(Clock::now() + delay), acked, cycle);
    const bool exited_early = writer->stdout_closed();
    const int status = writer->kill_and_reap();
    take_lines(writer->read_lines(Clock::now() + kDrainTimeout), acked, cycle);
    ASSERT_FALSE(exited_early) << "the writer exited by itself (wait status " << status << ")";
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "wait status " << status;
    if (cycle.opened_at) {
      ++kills_while_appending;
      EXPECT_EQ(*cycle.opened_at, last_seq) << "the writer did not find the journal as the last audit left it";
    }
    ASSERT_FALSE(HasFailure());

    const JournalAudit audit = audit_journal(dir, acked);
    for (const auto& failure : audit.failures) ADD_FAILURE() << failure;
    ASSERT_TRUE(audit.failures.empty()) << "after " << acked.size() << " acknowledged records";
    truncated += audit.truncated_records;
    last_seq = audit.last_seq;
    head_file_lag += audit.last_seq - std::min(audit.last_seq, audit.head_file_seq);
    if (kill % kProgressEvery == 0 && kill < kills) {
      std::printf("crash loop: %llu kills, %zu records acknowledged, %.0f s\n", static_cast<unsigned long long>(kill),
                  acked.size(), std::chrono::duration<double>(Clock::now() - start).count());
      std::fflush(stdout);
    }
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  std::printf(
      "crash loop: %llu kills (%llu after the writer opened) in %.1f s, %zu records acknowledged, %llu torn records "
      "truncated, HEAD behind the log by %llu records in all, KOORDQ_CRASH_SEED=%llu\n",
      static_cast<unsigned long long>(kills), static_cast<unsigned long long>(kills_while_appending), seconds,
      acked.size(), static_cast<unsigned long long>(truncated), static_cast<unsigned long long>(head_file_lag),
      static_cast<unsigned long long>(seed));
  EXPECT_GT(acked.size(), kills) << "the writer must get records acknowledged";
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::reliability
