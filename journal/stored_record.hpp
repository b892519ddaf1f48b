// A record as stored in the `log` column family: B (its canonical Cap'n Proto encoding with
// `hash` unset) followed by the 32 bytes of its hash. Parsing checks the framing only; the
// chain is checked by whoever walks it (recovery, verify).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <capnp/message.h>

#include "base/result.hpp"
#include "journal/hash_chain.hpp"
#include "journal/record_kind.hpp"
#include "schema/record.capnp.h"

namespace koordq::journal {

class StoredRecord {
 public:
  // One copy of `value`, into word-aligned memory (Cap'n Proto readers need it); B and the hash are
  // multiples of 8 bytes, so the value fills its words exactly.
  static Result<StoredRecord> parse(std::string_view value);

  StoredRecord(StoredRecord&&) noexcept = default;
  StoredRecord& operator=(StoredRecord&&) noexcept = default;

  uint64_t seq() const { return seq_; }
  int64_t time() const { return time_; }
  RecordKind kind() const { return kind_; }
  const Hash& hash() const { return hash_; }
  const Hash& prev_hash() const { return prev_hash_; }
  // B: what the hash covers and what exports carry.
  std::string_view canonical_bytes() const { return stored_value().substr(0, stored_value().size() - 32); }
  // The whole stored value (B ‖ hash).
  std::string_view stored_value() const {
    return std::string_view(reinterpret_cast<const char*>(words_.begin()), words_.size() * sizeof(capnp::word));
  }
  wire::Record::Reader reader() const { return root_; }
  // SHA-256(prevHash ‖ B) == hash.
  bool hash_matches() const;

 private:
  StoredRecord() = default;
  kj::Array<capnp::word> words_;  // B ‖ hash
  // B is one canonical segment without a segment table.
  std::unique_ptr<kj::ArrayPtr<const capnp::word>> segment_;
  std::unique_ptr<capnp::SegmentArrayMessageReader> message_;
  wire::Record::Reader root_;
  uint64_t seq_ = 0;
  int64_t time_ = 0;
  RecordKind kind_ = RecordKind::kTick;
  Hash hash_{};
  Hash prev_hash_{};
};

}  // namespace koordq::journal
