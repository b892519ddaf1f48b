// A full disk (behaviour.md §19): appends to a journal on a small tmpfs fail with a clear error
// and no crash once it is full, every record acknowledged before stays intact, and appends
// succeed again once space is freed. Skipped where a tmpfs cannot be mounted.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "journal/journal.hpp"
#include "tests/reliability/journal_audit.hpp"
#include "tests/reliability/tmpfs_mount.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::reliability {
namespace KOORDQ_TEST_LOCAL {

namespace fs = std::filesystem;

// Freeing the filler must leave more than RocksDB's reserved disk buffer (the 64 MiB write buffer
// of the log) free: only then does RocksDB clear a no-space error and accept writes again.
constexpr uint64_t kDiskBytes = 96u << 20;
constexpr uint64_t kFillerBytes = 80u << 20;
constexpr int kMaxAppends = 100'000;  // far more than the disk holds
// serve retries a failed append every second (behaviour.md §19); RocksDB looks for free space
// every 5 s.
constexpr auto kResumeTimeout = std::chrono::seconds(30);
constexpr auto kRetryInterval = std::chrono::milliseconds(100);

Result<journal::AppendedRecord> append(journal::Journal& j, size_t size) {
  std::promise<Result<journal::AppendedRecord>> done;
  j.writer().append(testing::relist_body(std::string(size, 'q')),
                    [&](const Result<journal::AppendedRecord>& r) { done.set_value(r); });
  return done.get_future().get();
}

void write_filler(const fs::path& path, uint64_t bytes) {
  std::ofstream out(path, std::ios::binary);
  const std::string block(1 << 16, 'f');
  for (uint64_t written = 0; written < bytes; written += block.size()) out.write(block.data(), block.size());
  ASSERT_TRUE(out.flush()) << "cannot write " << path;
}

TEST(JournalDiskFull, appends_fail_cleanly_on_a_full_disk_keep_what_was_acknowledged_and_resume_when_freed) {
  testing::TempDir scratch;
  auto disk = TmpfsMount::mount(scratch / "disk", kDiskBytes);
  if (!disk.ok()) GTEST_SKIP() << disk.message() << " (mounting a tmpfs needs root or CAP_SYS_ADMIN)";
  const fs::path filler = (*disk)->dir() / "filler";
  write_filler(filler, kFillerBytes);
  const fs::path dir = (*disk)->dir() / "journal";

  AckedRecords acked;
  {
    journal::JournalOptions options;
    options.dir = dir;
    options.on_corruption = journal::CorruptionPolicy::kFail;
    auto j = journal::Journal::open(options);
    ASSERT_TRUE(j.ok()) << j.message();

    std::optional<Error> failure;
    for (int i = 0; i < kMaxAppends && !failure; ++i) {
      auto r = append(**j, 4096);
      if (r.ok()) {
        acked.emplace(r->seq, journal::to_hex(r->hash));
      } else {
        failure = r.error();
      }
    }
    ASSERT_TRUE(failure.has_value()) << "the disk never filled up";
    std::printf("disk full after %zu records: %s\n", acked.size(), failure->message.c_str());
    EXPECT_NE(failure->message.find("journal write failed"), std::string::npos) << failure->message;
    EXPECT_NE(failure->message.find("No space left on device"), std::string::npos) << failure->message;
    auto still_full = append(**j, 4096);
    EXPECT_FALSE(still_full.ok()) << "an append succeeded on a full disk";

    fs::remove(filler);
    const auto give_up = std::chrono::steady_clock::now() + kResumeTimeout;
    Result<journal::AppendedRecord> resumed = append(**j, 512);
    while (!resumed.ok() && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(kRetryInterval);
      resumed = append(**j, 512);
    }
    ASSERT_TRUE(resumed.ok()) << "appends still fail " << kResumeTimeout.count()
                              << " s after space was freed: " << resumed.message();
    acked.emplace(resumed->seq, journal::to_hex(resumed->hash));
    for (int i = 0; i < 20; ++i) {
      auto r = append(**j, 512);
      ASSERT_TRUE(r.ok()) << "append " << i << " after space was freed: " << r.message();
      acked.emplace(r->seq, journal::to_hex(r->hash));
    }
  }
  const JournalAudit audit = audit_journal(dir, acked);
  for (const auto& f : audit.failures) ADD_FAILURE() << f;
  EXPECT_EQ(audit.last_seq, acked.rbegin()->first) << "records of failed appends were kept";
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::reliability
