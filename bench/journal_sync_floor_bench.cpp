// The disk's floor under every durable append: append ≈300 bytes to a file and fdatasync it, from
// one thread. Arg 1 adds a second thread that rewrites a small file the way the journal's HEAD
// file is written (create, write, fdatasync, rename) in a loop; on ext4 this changes the first
// thread's fdatasync latency, which explains part of the single-producer figures.
#include <atomic>
#include <string>
#include <thread>

#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <unistd.h>

#include "bench/journal_bench.hpp"
#include "journal/head_file.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::bench {
namespace {

void BM_SyncFloor(benchmark::State& state) {
  const bool head_writer = state.range(0) != 0;
  constexpr int kSyncs = 1000;
  for (auto _ : state) {
    testing::TempDir dir;
    const std::string wal = (dir / "wal").string();
    const int fd = ::open(wal.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      state.SkipWithError("cannot create the file");
      return;
    }
    std::atomic<bool> stop{false};
    std::thread heads([&] {
      for (uint64_t seq = 1; head_writer && !stop; ++seq) journal::write_head_file(dir / "HEAD", {seq, {}}).ok();
    });
    const std::string record(304, 'r');
    std::vector<int64_t> nanos;
    bool failed = false;
    const int64_t start = now_nanos();
    for (int i = 0; i < kSyncs; ++i) {
      const int64_t t = now_nanos();
      failed |= ::write(fd, record.data(), record.size()) != static_cast<ssize_t>(record.size());
      failed |= ::fdatasync(fd) != 0;
      nanos.push_back(now_nanos() - t);
    }
    const double seconds = static_cast<double>(now_nanos() - start) / 1e9;
    stop = true;
    heads.join();
    ::close(fd);
    if (failed) state.SkipWithError("write or fdatasync failed");
    const auto p = percentiles(nanos);
    state.counters["syncs/s"] = kSyncs / seconds;
    state.counters["p50_us"] = p.p50_us;
    state.counters["p99_us"] = p.p99_us;
  }
}
BENCHMARK(BM_SyncFloor)->ArgName("head_writer")->Arg(0)->Arg(1)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace
}  // namespace koordq::bench
