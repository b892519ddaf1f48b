// Journal records as the journal stores them, built in memory: each body numbered, timed and
// chained exactly as the writer does it, without a database, so tests can fold thousands of
// records through the stored form cheaply.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "journal/capnp_record_body.hpp"
#include "journal/hash_chain.hpp"
#include "journal/stored_record.hpp"

namespace koordq::testing {

class RecordChain {
 public:
  explicit RecordChain(const std::string& journal_uuid = "00000000-0000-4000-8000-000000000001")
      : prev_(journal::genesis_hash(journal_uuid)) {}

  // The next record: seq = last + 1 at `time`.
  journal::StoredRecord append(const journal::CapnpRecordBody& body, int64_t time) {
    const std::string b = body.canonical_bytes(++seq_, time, prev_);
    prev_ = journal::chain_hash(prev_, b);
    auto stored = journal::StoredRecord::parse(b + std::string(journal::as_bytes(prev_)));
    if (!stored.ok()) throw std::runtime_error(stored.message());
    return std::move(stored).value();
  }

  uint64_t last_seq() const { return seq_; }

 private:
  uint64_t seq_ = 0;
  journal::Hash prev_;
};

}  // namespace koordq::testing
