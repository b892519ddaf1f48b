// The decision state at any revision of a journal read offline (`koordq console`): rebuilt as
// `koordq at` rebuilds it (replay::replay_to: the newest snapshot at or before the revision, the
// records after it, under the journal's own configuration), with the latest states kept in a
// cache bounded in bytes. One rebuild at a time.
#pragma once

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "actors/core/scheduler.hpp"
#include "api/api_error.hpp"
#include "api/time_travel.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::console {

class JournalStates {
 public:
  JournalStates(journal::JournalReader& reader, size_t cache_bytes) : reader_(reader), cache_bytes_(cache_bytes) {}

  std::optional<api::ApiError> read(uint64_t revision, const api::StateRead& read);

 private:
  struct Entry {
    std::shared_ptr<const actors::Scheduler> state;
    size_t bytes = 0;
    std::list<uint64_t>::iterator recency;
  };
  void remember(uint64_t revision, std::shared_ptr<const actors::Scheduler> state);

  journal::JournalReader& reader_;
  const size_t cache_bytes_;
  std::mutex mu_;
  std::map<uint64_t, Entry> cache_;
  std::list<uint64_t> recency_;  // most recent first
  size_t cached_bytes_ = 0;
};

}  // namespace koordq::console
