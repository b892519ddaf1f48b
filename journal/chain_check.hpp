// Checks what design.md §2–§5 promise of a sequence of records: dense seq, each record numbered
// like its position, prevHash links to the previous hash, hash = SHA-256(prevHash ‖ B), time
// never decreases, and a round directly follows its basis (the input it was decided on).
// Used by recovery (from the last verified point), `koordq journal verify` (from the start) and
// `koordq journal verify --export`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "journal/head_file.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::journal {

struct ChainBreak {
  uint64_t seq = 0;  // the first seq that is wrong
  std::string reason;
};

class ChainVerifier {
 public:
  // The record after `start.seq` must carry `start.hash` as prevHash.
  ChainVerifier(ChainHead start, int64_t start_time) : head_(start), time_(start_time), anchored_(true) {}
  // Accepts whatever the first record links to (an export that does not start at seq 1).
  ChainVerifier() = default;

  // The reason `r` breaks the chain, or std::nullopt when it extends it.
  std::optional<ChainBreak> add(const StoredRecord& r);

  const ChainHead& head() const { return head_; }
  int64_t time() const { return time_; }
  uint64_t records() const { return records_; }
  uint64_t first_seq() const { return first_seq_; }

 private:
  ChainHead head_{};
  int64_t time_ = INT64_MIN;
  bool anchored_ = false;
  bool previous_is_round_ = false;
  uint64_t records_ = 0;
  uint64_t first_seq_ = 0;
};

struct ChainCheck {
  ChainHead last_good;  // head of the intact prefix
  int64_t last_good_time = 0;
  uint64_t records = 0;    // records checked
  uint64_t first_seq = 0;  // first record checked (0 when none)
  std::optional<ChainBreak> first_break;
};

// Walks the log after `start.seq`. For a journal whose oldest records were dropped by retention,
// pass the first retained seq − 1 with that record's prevHash. `progress` is called now and then
// with the last checked seq.
ChainCheck check_chain(JournalReader& reader, ChainHead start, int64_t start_time,
                       const std::function<void(uint64_t)>& progress = {});

}  // namespace koordq::journal
