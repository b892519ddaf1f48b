// What the console reads (docs/behaviour.md §25): one journal, the decision state at any of its
// revisions, and the timeline index a follower keeps. `serve` fills it from its own journal and
// time travel; `koordq console` from a read-only instance of a journal directory.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "api/api_error.hpp"
#include "api/time_travel.hpp"
#include "console/timeline_index.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::console {

// Runs `read` on the state after `revision`, or says why it cannot (the API's errors).
using StateAt = std::function<std::optional<api::ApiError>(uint64_t revision, const api::StateRead& read)>;

struct ConsoleContext {
  // Read from the console's request threads. `koordq console`: a read-only instance of its own,
  // on one request thread. serve: the journal's own reader, shared with the serve loop, the debug
  // API and the timeline follower; it holds no state of its own beside the RocksDB handle, whose
  // reads are thread-safe (design.md §8).
  journal::JournalReader* reader = nullptr;
  // The newest revision the console shows: the durable head under serve, the last record
  // otherwise (`koordq console` catches its instance up on a thread of its own). Called per request.
  std::function<uint64_t()> head;
  StateAt state_at;
  // Why the journal directory no longer holds the journal read (quarantined by a serve), or
  // std::nullopt; empty under serve, whose journal cannot be moved while it runs.
  std::function<std::optional<std::string>()> moved;
  const TimelineIndex* timeline = nullptr;
  std::string journal_uuid;
  std::string source;  // "serve" or the journal directory
  bool live = false;   // the console of a running serve: the page follows the head
};

}  // namespace koordq::console
