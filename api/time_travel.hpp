// Reads of the decision state at a point in time for the live APIs (design.md §6, behaviour.md
// §18): the latest published state from the read side, any other revision reconstructed from
// the nearest snapshot plus the records after it. Reads of pages (read_pages) get the read side's
// pages live, and the pages of a reconstructed state built as they are read (kept with it, each
// built once). Reconstructed states are kept in an LRU cache of a bounded estimated size; at most
// `max_inflight` reconstructions run at once, over the visibility and debug APIs together, and a
// request beyond that is refused at once (429). Reconstructions read only the journal: they never
// touch the scheduling actors.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string_view>

#include "actors/core/decision_config.hpp"
#include "actors/core/scheduler.hpp"
#include "actors/pages/read_pages.hpp"
#include "api/api_error.hpp"
#include "api/read_params.hpp"
#include "base/deferred_release.hpp"
#include "base/lru_cache.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::api {

enum class TimeTravelResult { kHit, kMiss, kThrottled, kExpired, kInvalid, kError };
std::string_view to_string(TimeTravelResult result);

using StateRead = std::function<void(const actors::Scheduler& state, uint64_t revision)>;
// Runs a read on the live state (the read side's, with the seq it was applied up to).
using LiveStateRead = std::function<void(const StateRead& read)>;
using PagesRead = std::function<void(const actors::pages::ReadPages& pages)>;
// The live pages (the read side's latest publication); null before there are any.
using LivePages = std::function<std::shared_ptr<const actors::pages::ReadPages>()>;
// Told about every request that carried asOf or revision: its result and, for hits and misses,
// the seconds from receipt to the end of the answer.
using TimeTravelObserver = std::function<void(TimeTravelResult result, std::optional<double> seconds)>;

struct TimeTravelOptions {
  size_t max_inflight = 4;          // --max-inflight-timetravel
  size_t cache_bytes = 256u << 20;  // --timetravel-cache-mb
  actors::DecisionConfig config;    // the configuration the live state is folded under
};

class TimeTravel {
 public:
  // Without `live_pages`, the live pages are built from the live state on each read.
  TimeTravel(TimeTravelOptions options, journal::JournalReader& reader, LiveStateRead live,
             TimeTravelObserver observer = {}, LivePages live_pages = {});

  // Runs `read` on the state at `at`; an ApiError (400 newer than the latest, 410 no longer
  // retained, 429 at the cap, 500) when it cannot. Counts the request when it travels in time.
  std::optional<ApiError> read(const PointInTime& at, const StateRead& read);
  // The same for a read of the pages at `at`.
  std::optional<ApiError> read_pages(const PointInTime& at, const PagesRead& read);
  // A request whose asOf or revision did not parse (counted as `invalid`).
  void count_invalid();

  size_t cached_states() const;
  size_t cached_bytes() const;

  // The estimated in-memory size a state counts with in the cache.
  static size_t estimated_size(const actors::Scheduler& state);

 private:
  // A reconstructed state and its pages, built on demand.
  struct Cached {
    std::shared_ptr<const actors::Scheduler> state;
    actors::pages::ReadPages pages;
  };
  // Answers the live state when `live_read` can (given the revision asked for, or std::nullopt
  // for the latest whatever it is; it returns whether it answered), else `past_read` on the state
  // at the revision `at` resolves to, cached or reconstructed. Counts the time-travel requests.
  using LiveRead = std::function<bool(std::optional<uint64_t> revision)>;
  using PastRead = std::function<void(const Cached& past, uint64_t revision)>;
  std::optional<ApiError> travel(const PointInTime& at, const LiveRead& live_read, const PastRead& past_read);
  std::optional<ApiError> resolve(const PointInTime& at, uint64_t& revision);
  std::shared_ptr<Cached> restore(uint64_t revision, std::optional<ApiError>& error);
  void live_pages(const PagesRead& read);
  std::shared_ptr<Cached> cached(uint64_t revision);
  void remember(uint64_t revision, std::shared_ptr<Cached> state);
  void finish(TimeTravelResult result, std::chrono::steady_clock::time_point started);

  TimeTravelOptions options_;
  journal::JournalReader& reader_;
  LiveStateRead live_;
  LivePages live_pages_;
  TimeTravelObserver observer_;
  std::mutex journal_mu_;  // the reader's retained-range lookups

  mutable std::mutex cache_mu_;
  base::LruCache<uint64_t, std::shared_ptr<Cached>> cache_;  // cost: estimated bytes
  std::atomic<size_t> inflight_{0};
  base::DeferredRelease release_;  // declared last: destroyed first, with the states it holds
};

}  // namespace koordq::api
