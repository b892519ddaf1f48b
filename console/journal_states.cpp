#include "console/journal_states.hpp"


namespace koordq::console {

std::optional<api::ApiError> JournalStates::read(uint64_t revision, const api::StateRead& read) {
  std::lock_guard lock(mu_);
  if (auto hit = cache_.find(revision); hit != cache_.end()) {
    recency_.splice(recency_.begin(), recency_, hit->second.recency);
    read(*hit->second.state, revision);
    return std::nullopt;
  }
  auto replayed = rebuild(revision);
  if (!replayed.ok()) {
    return api::ApiError{500, "InternalError",
                         "cannot rebuild the state at revision " + std::to_string(revision) + ": " +
                             replayed.message() + "; check the journal with 'koordq journal verify'"};
  }
  auto state = std::make_shared<const actors::Scheduler>(std::move(replayed->scheduler));
  read(*state, revision);
  remember(revision, replayed->time, std::move(state));
  return std::nullopt;
}

Result<replay::ReplayedState> JournalStates::rebuild(uint64_t revision) {
  auto nearer = cache_.lower_bound(revision);
  if (nearer != cache_.begin()) {
    --nearer;
    auto snapshot = reader_.latest_snapshot_seq_at_or_before(revision);
    if (snapshot.ok() && nearer->first >= snapshot->value_or(0)) {
      return replay::replay_on(reader_, *nearer->second.state, nearer->first, nearer->second.time, revision);
    }
  }
  return replay::replay_to(reader_, revision);
}

void JournalStates::remember(uint64_t revision, int64_t time, std::shared_ptr<const actors::Scheduler> state) {
  const size_t bytes = api::TimeTravel::estimated_size(*state);
  if (bytes > cache_bytes_) return;
  while (cached_bytes_ + bytes > cache_bytes_ && !recency_.empty()) {
    auto oldest = cache_.find(recency_.back());
    cached_bytes_ -= oldest->second.bytes;
    cache_.erase(oldest);
    recency_.pop_back();
  }
  recency_.push_front(revision);
  cache_[revision] = Entry{std::move(state), time, bytes, recency_.begin()};
  cached_bytes_ += bytes;
}

}  // namespace koordq::console
