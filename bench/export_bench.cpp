// `journal export` and `journal verify --export` (export_records, verify_export) on the journal
// named by KOORDQ_EXPORT_BENCH_JOURNAL, each beside the raw library doing the same reading in the
// same run: a raw RocksDB iterator over the same `log` family, and the export's bytes read from
// the same file or pipe and hashed with OpenSSL's SHA-256. Items are records: items/s is records/s.
// scripts/bench-export.sh makes the simulator's journal and runs this.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include <benchmark/benchmark.h>
#include <ext/stdio_sync_filebuf.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <rocksdb/iterator.h>
#include <unistd.h>

#include "journal/export_records.hpp"
#include "journal/journal_reader.hpp"
#include "journal/keys.hpp"
#include "journal/verify.hpp"

namespace koordq::bench {
namespace {

// A stream that keeps nothing: what export costs without the output's own cost.
class DiscardBuf final : public std::streambuf {
 protected:
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
};

struct Fixture {
  Fixture() {
    const char* dir = std::getenv("KOORDQ_EXPORT_BENCH_JOURNAL");
    if (dir == nullptr) throw std::runtime_error("set KOORDQ_EXPORT_BENCH_JOURNAL to a journal directory");
    auto opened = journal::JournalReader::open_secondary(dir);
    if (!opened.ok()) throw std::runtime_error(opened.message());
    reader = std::move(opened).value();
    std::ostringstream out;
    auto n = journal::export_records(*reader, journal::ExportFormat::kNdjson, {}, out);
    if (!n.ok()) throw std::runtime_error(n.message());
    records = *n;
    bytes = out.str();
    file = std::filesystem::temp_directory_path() / ("koordq-export-bench-" + std::to_string(::getpid()) + ".ndjson");
    std::ofstream(file, std::ios::binary) << bytes;
  }
  ~Fixture() { std::filesystem::remove(file); }

  std::unique_ptr<journal::JournalReader> reader;
  uint64_t records = 0;
  std::string bytes;
  std::filesystem::path file;
};

Fixture& fixture() {
  static Fixture f;
  return f;
}

// Standard input as `journal verify --export -` reads it: a pipe behind std::cin's kind of buffer
// (stdio-synchronised), fed by another thread.
template <class Read>
void through_pipe(const std::string& bytes, Read&& read) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  std::thread writer([&] {
    size_t at = 0;
    while (at < bytes.size()) {
      const ssize_t n = ::write(fds[1], bytes.data() + at, bytes.size() - at);
      if (n <= 0) break;
      at += static_cast<size_t>(n);
    }
    ::close(fds[1]);
  });
  FILE* in = ::fdopen(fds[0], "r");
  read(in);
  std::fclose(in);
  writer.join();
}

void sha256_of(FILE* in, benchmark::State& state) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex(ctx, EVP_sha256(), nullptr);
  std::string buffer(1 << 20, '\0');
  size_t lines = 0;
  for (size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), in)) > 0;) {
    for (const char* p = buffer.data(); (p = static_cast<const char*>(std::memchr(p, '\n', buffer.data() + n - p)));
         ++p) {
      ++lines;
    }
    EVP_DigestUpdate(ctx, buffer.data(), n);
  }
  unsigned char digest[32];
  EVP_DigestFinal_ex(ctx, digest, nullptr);
  EVP_MD_CTX_free(ctx);
  benchmark::DoNotOptimize(digest);
  if (lines != fixture().records + 1) state.SkipWithError("the export's lines were not all read");
}

void check(const journal::VerifyReport& report, benchmark::State& state) {
  if (report.broken) state.SkipWithError(report.broken->reason.c_str());
  if (report.records != fixture().records) state.SkipWithError("verify did not read every record");
}

void BM_RawRocksDbScan(benchmark::State& state) {
  auto& store = fixture().reader->store();
  for (auto _ : state) {
    std::unique_ptr<rocksdb::Iterator> it(store.db().NewIterator(rocksdb::ReadOptions(), store.log()));
    uint64_t touched = 0;
    for (it->Seek(journal::seq_key(1)); it->Valid(); it->Next()) {
      touched += it->value().size() + static_cast<uint8_t>(it->value()[0]);
    }
    benchmark::DoNotOptimize(touched);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * fixture().records));
}

void BM_Export(benchmark::State& state) {
  DiscardBuf discard;
  std::ostream out(&discard);
  for (auto _ : state) {
    auto n = journal::export_records(*fixture().reader, journal::ExportFormat::kNdjson, {}, out);
    if (!n.ok() || *n != fixture().records) state.SkipWithError("export failed");
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * fixture().records));
}

void BM_RawSha256OfExportFile(benchmark::State& state) {
  for (auto _ : state) {
    FILE* in = std::fopen(fixture().file.c_str(), "r");
    sha256_of(in, state);
    std::fclose(in);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * fixture().records));
}

void BM_VerifyExportFile(benchmark::State& state) {
  for (auto _ : state) {
    std::ifstream in(fixture().file, std::ios::binary);
    check(journal::verify_export(in), state);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * fixture().records));
}

void BM_RawSha256OfExportPipe(benchmark::State& state) {
  for (auto _ : state) through_pipe(fixture().bytes, [&](FILE* in) { sha256_of(in, state); });
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * fixture().records));
}

void BM_VerifyExportPipe(benchmark::State& state) {
  for (auto _ : state) {
    through_pipe(fixture().bytes, [&](FILE* file) {
      __gnu_cxx::stdio_sync_filebuf<char> buffer(file);
      std::istream in(&buffer);
      check(journal::verify_export(in), state);
    });
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * fixture().records));
}

BENCHMARK(BM_RawRocksDbScan)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_Export)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_RawSha256OfExportFile)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_VerifyExportFile)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_RawSha256OfExportPipe)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_VerifyExportPipe)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

}  // namespace
}  // namespace koordq::bench

BENCHMARK_MAIN();
