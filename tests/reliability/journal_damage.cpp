#include "tests/reliability/journal_damage.hpp"

#include <fstream>
#include <future>
#include <memory>
#include <stdexcept>

#include <rocksdb/table_properties.h>
#include <rocksdb/write_batch.h>

#include "journal/journal.hpp"
#include "journal/keys.hpp"
#include "tests/support/journal_records.hpp"

namespace koordq::reliability {

namespace fs = std::filesystem;

std::vector<journal::Hash> append_records(const fs::path& dir, uint64_t count,
                                          std::shared_ptr<const journal::SigningKey> key) {
  journal::JournalOptions options;
  options.dir = dir;
  options.signing_key = std::move(key);
  options.on_corruption = journal::CorruptionPolicy::kFail;
  auto j = journal::Journal::open(options);
  if (!j.ok()) throw std::runtime_error(j.message());
  std::vector<std::future<Result<journal::AppendedRecord>>> acks;
  for (uint64_t i = 0; i < count; ++i) {
    auto done = std::make_shared<std::promise<Result<journal::AppendedRecord>>>();
    acks.push_back(done->get_future());
    const size_t size = i % 16 == 0 ? 3000 : 40 + i % 100;
    (*j)->writer().append(testing::relist_body(std::string(size, static_cast<char>('a' + i % 26))),
                          [done](const Result<journal::AppendedRecord>& r) { done->set_value(r); });
  }
  for (auto& ack : acks) {
    auto r = ack.get();
    if (!r.ok()) throw std::runtime_error(r.message());
  }
  std::vector<journal::Hash> hashes;
  auto cursor = (*j)->reader().cursor(1);
  for (auto next = cursor.next(); next.ok() && next->has_value(); next = cursor.next()) {
    hashes.push_back((*next)->hash());
  }
  return hashes;
}

void with_store(const fs::path& dir, const std::function<void(journal::RocksStore&)>& change) {
  auto store = journal::RocksStore::open(dir / "db", journal::StoreMode::kPrimary);
  if (!store.ok()) throw std::runtime_error(store.message());
  change(**store);
}

void set_verified_point(const fs::path& dir, uint64_t seq, const journal::Hash& hash) {
  with_store(dir, [&](journal::RocksStore& s) {
    rocksdb::WriteBatch b;
    b.Put(s.meta(), journal::kMetaVerified, std::to_string(seq) + " " + journal::to_hex(hash));
    if (!s.write(b, true).ok()) throw std::runtime_error("cannot set the verified point");
  });
}

void flush_all(const fs::path& dir) {
  with_store(dir, [](journal::RocksStore& s) {
    for (auto* cf : {s.log(), s.time(), s.snapshot(), s.meta()}) {
      if (!s.db().Flush(rocksdb::FlushOptions(), cf).ok()) throw std::runtime_error("cannot flush the journal");
    }
  });
}

void compact_log(const fs::path& dir) {
  with_store(dir, [](journal::RocksStore& s) {
    rocksdb::CompactRangeOptions options;
    options.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
    if (!s.db().Flush(rocksdb::FlushOptions(), s.log()).ok() ||
        !s.db().CompactRange(options, s.log(), nullptr, nullptr).ok()) {
      throw std::runtime_error("cannot compact the log");
    }
  });
}

LogTable newest_log_table(const fs::path& dir) {
  LogTable table;
  with_store(dir, [&](journal::RocksStore& s) {
    std::vector<rocksdb::LiveFileMetaData> files;
    s.db().GetLiveFilesMetaData(&files);
    const rocksdb::LiveFileMetaData* newest = nullptr;
    for (const auto& f : files) {
      if (f.column_family_name == "log" && (!newest || f.file_number > newest->file_number)) newest = &f;
    }
    if (!newest) throw std::runtime_error("the log has no SST file");
    table.path = fs::path(newest->directory) / newest->relative_filename;
    table.first_seq = journal::decode_seq_key(newest->smallestkey).value_or(0);
    rocksdb::TablePropertiesCollection properties;
    if (!s.db().GetPropertiesOfAllTables(s.log(), &properties).ok() || !properties.count(table.path.string())) {
      throw std::runtime_error("no table properties for " + table.path.string());
    }
    table.data_bytes = properties.at(table.path.string())->data_size;
  });
  return table;
}

uint64_t first_unreadable_seq(const fs::path& dir, uint64_t last) {
  uint64_t bad = 0;
  with_store(dir, [&](journal::RocksStore& s) {
    for (uint64_t seq = 1; seq <= last && bad == 0; ++seq) {
      if (!s.get(s.log(), journal::seq_key(seq)).ok()) bad = seq;
    }
  });
  return bad;
}

void flip_byte(const fs::path& file, uint64_t offset) {
  std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(static_cast<std::streamoff>(offset));
  char c = 0;
  f.get(c);
  f.seekp(static_cast<std::streamoff>(offset));
  f.put(static_cast<char>(c ^ 0x40));
  if (!f) throw std::runtime_error("cannot flip a byte of " + file.string());
}

std::vector<fs::path> wal_files(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(dir / "db")) {
    if (entry.path().extension() == ".log") out.push_back(entry.path());
  }
  return out;
}

}  // namespace koordq::reliability
