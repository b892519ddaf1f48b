// The HEAD file beside the database: the chain head (seq, hash) of the last durable batch,
// replaced atomically (write a temporary file, fdatasync, rename). HEAD may lag the log after a
// crash (the rename came too late) but never leads it, so a log that ends before HEAD, or
// disagrees with it at HEAD's seq, lost acknowledged records (design.md §5).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "base/result.hpp"
#include "journal/hash_chain.hpp"

namespace koordq::journal {

struct ChainHead {
  uint64_t seq = 0;
  Hash hash{};

  bool operator==(const ChainHead&) const = default;
};

// Absent file → std::nullopt; unreadable or malformed file → Error.
Result<std::optional<ChainHead>> read_head_file(const std::filesystem::path& path);
Status write_head_file(const std::filesystem::path& path, const ChainHead& head);

}  // namespace koordq::journal
