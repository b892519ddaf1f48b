// Walks the log and checks what design.md §2–§5 promise: dense seq, each record decodes and is
// numbered like its key, prevHash links to the previous hash, hash = SHA-256(prevHash ‖ B),
// time never decreases, and a round directly follows its basis (the input it was decided on).
// Used by recovery (from the last verified point) and `koordq journal verify` (from the start).
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

struct ChainCheck {
  ChainHead last_good;           // head of the intact prefix
  int64_t last_good_time = 0;
  uint64_t records = 0;          // records checked
  uint64_t first_seq = 0;        // first record checked (0 when none)
  std::optional<ChainBreak> first_break;
};

// Starting point: the record after `start.seq` must carry `start.hash` as prevHash. For a journal
// whose oldest records were dropped by retention, pass the first retained seq − 1 with that
// record's prevHash. `progress` is called now and then with the last checked seq.
ChainCheck check_chain(JournalReader& reader, ChainHead start, int64_t start_time,
                       const std::function<void(uint64_t)>& progress = {});

}  // namespace koordq::journal
