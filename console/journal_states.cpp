#include "console/journal_states.hpp"

namespace koordq::console {

std::optional<api::ApiError> JournalStates::read(uint64_t revision, const api::StateRead& read) {
  std::lock_guard lock(mu_);
  if (const Entry* hit = cache_.get(revision); hit != nullptr && hit->state) {
    read(*hit->state, revision);
    return std::nullopt;
  }
  auto replayed = rebuild(revision);
  if (!replayed.ok()) {
    return api::ApiError{500, "InternalError",
                         "cannot rebuild the state at revision " + std::to_string(revision) + ": " +
                             replayed.message() + "; check the journal with 'koordq journal verify'"};
  }
  auto state = std::make_shared<actors::Scheduler>(std::move(replayed->scheduler));
  read(*state, revision);
  remember(revision, replayed->time, std::move(state));
  return std::nullopt;
}

Result<replay::ReplayedState> JournalStates::rebuild(uint64_t revision) {
  auto nearer = cached_.lower_bound(revision);
  if (nearer != cached_.begin()) {
    --nearer;
    const Entry* entry = cache_.get(nearer->first);
    auto snapshot = reader_.latest_snapshot_seq_at_or_before(revision);
    if (entry != nullptr && entry->state && snapshot.ok() && nearer->first >= snapshot->value_or(0)) {
      std::optional<Entry> taken = cache_.take(nearer->first);
      cached_.erase(nearer);
      return replay::replay_on(reader_, std::move(*taken->state), taken->revision, taken->time, revision);
    }
  }
  return replay::replay_to(reader_, revision);
}

void JournalStates::remember(uint64_t revision, int64_t time, std::shared_ptr<actors::Scheduler> state) {
  const size_t bytes = api::TimeTravel::estimated_size(*state);
  if (bytes > cache_bytes_) {
    release_.release(std::move(state));  // too large to keep
    return;
  }
  for (Entry& evicted : cache_.put(revision, Entry{std::move(state), revision, time, bytes}, bytes)) {
    cached_.erase(evicted.revision);
    release_.release(std::move(evicted.state));
  }
  cached_[revision] = time;
}

}  // namespace koordq::console
