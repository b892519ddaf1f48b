// Damage done to a closed journal behind its back, the way disks, operators and bugs do it, for
// the corruption tests. Every function works on a journal directory (<dir>/db and <dir>/HEAD).
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <vector>

#include "journal/hash_chain.hpp"
#include "journal/rocks_store.hpp"
#include "journal/signing_key.hpp"

namespace koordq::reliability {

// Appends `count` records (some large) through a Journal opened on `dir` and closes it cleanly;
// returns the hashes of every record in the journal, by seq − 1. With `key`, HEAD is signed.
std::vector<journal::Hash> append_records(const std::filesystem::path& dir, uint64_t count,
                                          std::shared_ptr<const journal::SigningKey> key = nullptr);

// Opens the journal's database directly, without recovery, and runs `change` on it.
void with_store(const std::filesystem::path& dir, const std::function<void(journal::RocksStore&)>& change);

// Sets the meta key "verified" (where the next open starts checking the chain) to `seq`.
void set_verified_point(const std::filesystem::path& dir, uint64_t seq, const journal::Hash& hash);

// Flushes every column family into SST files, so that only what comes later is in the WAL.
void flush_all(const std::filesystem::path& dir);

// Compacts the whole log into one SST file.
void compact_log(const std::filesystem::path& dir);

// The newest SST file of the log (after a flush) and the size of its data blocks, which come
// first in the file.
struct LogTable {
  std::filesystem::path path;
  uint64_t data_bytes = 0;
  uint64_t first_seq = 0;
};
LogTable newest_log_table(const std::filesystem::path& dir);

// The first seq in 1..last whose record cannot be read back: the seq recovery must name.
uint64_t first_unreadable_seq(const std::filesystem::path& dir, uint64_t last);

void flip_byte(const std::filesystem::path& file, uint64_t offset);
std::vector<std::filesystem::path> wal_files(const std::filesystem::path& dir);

}  // namespace koordq::reliability
