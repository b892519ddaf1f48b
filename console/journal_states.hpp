// The decision state at any revision of a journal read offline (`koordq console`): rebuilt as
// `koordq at` rebuilds it (replay::replay_to: the newest snapshot at or before the revision, the
// records after it, under the journal's own configuration), with the latest states kept in a
// cache bounded in bytes. A state cached before the revision and nearer to it than the newest
// snapshot is folded on instead (scrubbing forward, stepping and playing fold a few records, not
// a snapshot's worth): taken out of the cache and folded in place, never copied (copying a state
// costs about as much as restoring it from its snapshot, BENCHMARKS.md "The web console"); the
// state at the new revision takes its place. One rebuild at a time. States that leave the cache
// are freed on a thread of their own, not in the request that pushed them out.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "actors/core/scheduler.hpp"
#include "api/api_error.hpp"
#include "api/time_travel.hpp"
#include "base/deferred_release.hpp"
#include "base/lru_cache.hpp"
#include "journal/journal_reader.hpp"
#include "replay/replay.hpp"

namespace koordq::console {

class JournalStates {
 public:
  JournalStates(journal::JournalReader& reader, size_t cache_bytes)
      : reader_(reader), cache_bytes_(cache_bytes), cache_(cache_bytes) {}

  std::optional<api::ApiError> read(uint64_t revision, const api::StateRead& read);

 private:
  struct Entry {
    std::shared_ptr<actors::Scheduler> state;  // only read while cached
    uint64_t revision = 0;
    int64_t time = 0;  // of the record the state is after
    size_t bytes = 0;  // estimated
  };
  Result<replay::ReplayedState> rebuild(uint64_t revision);
  void remember(uint64_t revision, int64_t time, std::shared_ptr<actors::Scheduler> state);

  journal::JournalReader& reader_;
  const size_t cache_bytes_;
  std::mutex mu_;
  base::LruCache<uint64_t, Entry> cache_;  // each state costs its estimated bytes
  std::map<uint64_t, int64_t> cached_;     // the cached revisions in order, with their times
  base::DeferredRelease release_;          // declared last: destroyed first, with the states it holds
};

}  // namespace koordq::console
