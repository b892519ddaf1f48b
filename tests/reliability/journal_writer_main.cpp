// The process the crash loop kills (crash_loop_test.cpp): opens the journal in <dir> as `serve`
// does with --journal-on-corruption=fail and appends from several producer threads, each keeping
// a window of appends in flight, until it is killed. Every acknowledgement is printed at once
// (writer_protocol.hpp), so the driver knows exactly which records were promised durable.
//
// Usage: journal_crash_writer <dir> <seed>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sys/prctl.h>
#include <unistd.h>

#include "journal/journal.hpp"
#include "tests/reliability/writer_protocol.hpp"
#include "tests/support/journal_records.hpp"

namespace koordq::reliability {
namespace {

// Groups of up to kProducers × kWindow records: enough to share syncs, few enough records that
// the driver can audit the whole journal after each of hundreds of kills.
constexpr int kProducers = 4;
constexpr int kWindow = 2;
// A writer whose driver died without killing it must not run forever.
constexpr auto kLifetime = std::chrono::seconds(60);

void print(const std::string& line) {
  size_t done = 0;
  while (done < line.size()) {
    const ssize_t n = ::write(STDOUT_FILENO, line.data() + done, line.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) std::_Exit(5);  // the driver is gone
    done += static_cast<size_t>(n);
  }
}

// Mostly small records, now and then a large one so that some groups take a while to write.
std::unique_ptr<journal::RecordBody> next_body(std::mt19937_64& rng) {
  const uint64_t r = rng();
  if (r % 4 == 0) return testing::tick_body();
  const size_t size = r % 32 == 1 ? 2048 + (r >> 8) % 6144 : 8 + (r >> 8) % 200;
  return testing::relist_body(std::string(size, static_cast<char>('a' + (r >> 20) % 26)));
}

class Window {
 public:
  void acquire() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return in_flight_ < kWindow; });
    ++in_flight_;
  }
  void release() {
    {
      std::lock_guard lock(mu_);
      --in_flight_;
    }
    cv_.notify_one();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int in_flight_ = 0;
};

[[noreturn]] void produce(journal::GroupCommitWriter& writer, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Window window;
  for (;;) {
    window.acquire();
    writer.append(next_body(rng), [&window](const Result<journal::AppendedRecord>& r) {
      print(r.ok() ? ack_line(r->seq, r->hash) : error_line("append failed: " + r.message()));
      window.release();
    });
  }
}

int run(int argc, char** argv) {
  if (argc != 3) {
    print(error_line("usage: journal_crash_writer <dir> <seed>"));
    return 2;
  }
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  journal::JournalOptions options;
  options.dir = argv[1];
  options.on_corruption = journal::CorruptionPolicy::kFail;
  auto journal = journal::Journal::open(options);
  if (!journal.ok()) {
    print(error_line(journal.message()));
    return 3;
  }
  print(open_line((*journal)->reader().last_seq()));
  const uint64_t seed = std::strtoull(argv[2], nullptr, 10);
  for (int i = 0; i < kProducers; ++i) {
    std::thread([&writer = (*journal)->writer(), seed, i] { produce(writer, seed * kProducers + i); }).detach();
  }
  std::this_thread::sleep_for(kLifetime);
  std::_Exit(4);
}

}  // namespace
}  // namespace koordq::reliability

int main(int argc, char** argv) {
  return koordq::reliability::run(argc, argv);
}
