// The HEAD file beside the database: the chain head (seq, hash) of the last durable batch,
// replaced atomically (write a temporary file, fdatasync, rename). HEAD may lag the log after a
// crash (the rename came too late) but never leads it, so a log that ends before HEAD, or
// disagrees with it at HEAD's seq, lost acknowledged records (design.md §5). A journal gets HEAD
// ("0 <genesis hash>") when it is created, so a journal with records and no HEAD lost it.
//
// With a signing key, a second line carries the signature of head_statement (signed_statements.hpp):
//   <seq> <hash hex>
//   signature <key id> <base64>
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "base/result.hpp"
#include "journal/hash_chain.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

struct ChainHead {
  uint64_t seq = 0;
  Hash hash{};

  bool operator==(const ChainHead&) const = default;
};

// Absent file → std::nullopt; unreadable or malformed file → Error. `signature`, when given,
// receives the signature line's (std::nullopt when HEAD is not signed).
Result<std::optional<ChainHead>> read_head_file(const std::filesystem::path& path,
                                                std::optional<Signature>* signature = nullptr);
Status write_head_file(const std::filesystem::path& path, const ChainHead& head,
                       const std::optional<Signature>& signature = std::nullopt);

}  // namespace koordq::journal
