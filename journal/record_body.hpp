// What a producer hands to the journal: a record's body, not yet numbered. The writer assigns
// seq, time and prevHash and asks the body for its canonical bytes B; the hash chain is
// computed by the writer (hash = SHA-256(prevHash ‖ B)). The stored value of a record is B
// followed by the 32 hash bytes, so exports carry B exactly as it was hashed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "journal/hash_chain.hpp"
#include "journal/record_kind.hpp"

namespace koordq::journal {

class RecordBody {
 public:
  virtual ~RecordBody() = default;
  virtual RecordKind kind() const = 0;
  // The record's canonical encoding with seq, time and prevHash set and `hash` unset.
  virtual std::string canonical_bytes(uint64_t seq, int64_t time, const Hash& prev_hash) const = 0;
  // A time chosen by the producer (import, virtual clock); raised to keep time non-decreasing.
  virtual std::optional<int64_t> explicit_time() const { return std::nullopt; }
};

}  // namespace koordq::journal
