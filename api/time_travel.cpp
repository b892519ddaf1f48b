#include "api/time_travel.hpp"

#include <vector>

#include "actors/wire/state_restore.hpp"
#include "base/log.hpp"
#include "journal/revision_lookup.hpp"

namespace koordq::api {

std::string_view to_string(TimeTravelResult result) {
  switch (result) {
    case TimeTravelResult::kHit:
      return "hit";
    case TimeTravelResult::kMiss:
      return "miss";
    case TimeTravelResult::kThrottled:
      return "throttled";
    case TimeTravelResult::kExpired:
      return "expired";
    case TimeTravelResult::kInvalid:
      return "invalid";
    case TimeTravelResult::kError:
      break;
  }
  return "error";
}

TimeTravel::TimeTravel(TimeTravelOptions options, journal::JournalReader& reader, LiveStateRead live,
                       TimeTravelObserver observer, LivePages live_pages)
    : options_(std::move(options)),
      reader_(reader),
      live_(std::move(live)),
      live_pages_(std::move(live_pages)),
      observer_(std::move(observer)),
      cache_(options_.cache_bytes) {}

size_t TimeTravel::estimated_size(const actors::Scheduler& state) {
  // Measured per waiting unit in BENCHMARKS.md (about 2.2 KiB), with room for queues and quotas.
  return 4096 + state.units().size() * 2304 + state.queues().size() * 1536 + state.quotas().names().size() * 1024;
}

void TimeTravel::count_invalid() {
  if (observer_) observer_(TimeTravelResult::kInvalid, std::nullopt);
}

void TimeTravel::finish(TimeTravelResult result, std::chrono::steady_clock::time_point started) {
  if (!observer_) return;
  std::optional<double> seconds;
  if (result == TimeTravelResult::kHit || result == TimeTravelResult::kMiss) {
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  }
  observer_(result, seconds);
}

std::optional<ApiError> TimeTravel::resolve(const PointInTime& at, uint64_t& revision) {
  std::lock_guard lock(journal_mu_);
  auto range = journal::retained_range(reader_);
  if (!range.ok()) return ApiError{500, "InternalError", "cannot read the journal: " + range.message()};
  if (at.kind == PointInTime::Kind::kRevision) {
    if (at.revision > range->last) {
      return bad_request("revision " + std::to_string(at.revision) + " is newer than the latest revision " +
                         std::to_string(range->last));
    }
    auto checked = journal::check_revision(*range, at.revision);
    if (!checked.ok()) return ApiError{410, "Expired", checked.message()};
    revision = *checked;
    return std::nullopt;
  }
  auto found = journal::revision_at_time(reader_, *range, at.time, at.text);
  if (!found.ok()) return ApiError{410, "Expired", found.message()};
  revision = *found;
  return std::nullopt;
}

std::shared_ptr<TimeTravel::Cached> TimeTravel::cached(uint64_t revision) {
  std::lock_guard lock(cache_mu_);
  const auto* state = cache_.get(revision);
  return state != nullptr ? *state : nullptr;
}

void TimeTravel::remember(uint64_t revision, std::shared_ptr<Cached> state) {
  const size_t bytes = estimated_size(*state->state);
  if (bytes > options_.cache_bytes) return;
  // Evicted states are freed on the release thread: freeing one costs about a tenth of its
  // restore, which this request and cache hits of other requests would otherwise wait for.
  std::vector<std::shared_ptr<Cached>> evicted;
  {
    std::lock_guard lock(cache_mu_);
    if (cache_.contains(revision)) return;
    evicted = cache_.put(revision, std::move(state), bytes);
  }
  for (auto& old : evicted) release_.release(std::move(old));
}

size_t TimeTravel::cached_states() const {
  std::lock_guard lock(cache_mu_);
  return cache_.size();
}

size_t TimeTravel::cached_bytes() const {
  std::lock_guard lock(cache_mu_);
  return cache_.cost();
}

// A miss: the state at `revision` reconstructed, cached, with its pages to be built on demand.
std::shared_ptr<TimeTravel::Cached> TimeTravel::restore(uint64_t revision, std::optional<ApiError>& error) {
  if (inflight_.fetch_add(1) >= options_.max_inflight) {
    inflight_.fetch_sub(1);
    error =
        ApiError{429, "TooManyRequests",
                 "too many time-travel queries in flight (limit " + std::to_string(options_.max_inflight) + ")", true};
    return nullptr;
  }
  auto restored = actors::restore_state(reader_, revision, options_.config);
  inflight_.fetch_sub(1);
  if (!restored.ok()) {
    KQ_LOG_ERROR("time travel to revision {} failed: {}", revision, restored.message());
    error = ApiError{500, "InternalError",
                     "cannot reconstruct revision " + std::to_string(revision) + ": " + restored.message()};
    return nullptr;
  }
  auto past = std::make_shared<Cached>();
  past->state = std::make_shared<const actors::Scheduler>(std::move(restored->scheduler));
  past->pages = actors::pages::read_pages_on_demand(*past->state, revision, past->state);
  remember(revision, past);
  return past;
}

std::optional<ApiError> TimeTravel::travel(const PointInTime& at, const LiveRead& live_read,
                                           const PastRead& past_read) {
  if (!at.time_travel()) {
    live_read(std::nullopt);
    return std::nullopt;
  }
  const auto started = std::chrono::steady_clock::now();
  uint64_t revision = 0;
  if (auto error = resolve(at, revision)) {
    finish(error->code == 410   ? TimeTravelResult::kExpired
           : error->code == 400 ? TimeTravelResult::kInvalid
                                : TimeTravelResult::kError,
           started);
    return error;
  }
  // The latest applied revision is answered from the live state.
  TimeTravelResult result = TimeTravelResult::kHit;
  if (!live_read(revision)) {
    std::shared_ptr<Cached> past = cached(revision);
    if (!past) {
      std::optional<ApiError> error;
      if (!(past = restore(revision, error))) {
        finish(error->code == 429 ? TimeTravelResult::kThrottled : TimeTravelResult::kError, started);
        return error;
      }
      result = TimeTravelResult::kMiss;
    }
    past_read(*past, revision);
  }
  finish(result, started);
  return std::nullopt;
}

void TimeTravel::live_pages(const PagesRead& read) {
  if (live_pages_) {
    if (auto pages = live_pages_()) read(*pages);
    return;
  }
  live_([&](const actors::Scheduler& state, uint64_t revision) {
    read(actors::pages::read_pages_on_demand(state, revision));
  });
}

std::optional<ApiError> TimeTravel::read(const PointInTime& at, const StateRead& read) {
  return travel(
      at,
      [&](std::optional<uint64_t> revision) {
        bool answered = false;
        live_([&](const actors::Scheduler& state, uint64_t applied) {
          if (revision && applied != *revision) return;
          read(state, applied);
          answered = true;
        });
        return answered;
      },
      [&](const Cached& past, uint64_t revision) { read(*past.state, revision); });
}

std::optional<ApiError> TimeTravel::read_pages(const PointInTime& at, const PagesRead& read) {
  return travel(
      at,
      [&](std::optional<uint64_t> revision) {
        bool answered = false;
        live_pages([&](const actors::pages::ReadPages& pages) {
          if (revision && pages.revision != *revision) return;
          read(pages);
          answered = true;
        });
        return answered;
      },
      [&](const Cached& past, uint64_t) { read(past.pages); });
}

}  // namespace koordq::api
