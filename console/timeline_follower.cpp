#include "console/timeline_follower.hpp"

#include <condition_variable>
#include <mutex>

#include "base/log.hpp"

namespace koordq::console {

TimelineFollower::TimelineFollower(journal::JournalReader& reader, std::function<uint64_t()> head,
                                   std::function<void()> refresh, std::chrono::milliseconds period)
    : reader_(reader), head_(std::move(head)), refresh_(std::move(refresh)), period_(period) {
  thread_ = std::jthread([this](const std::stop_token& stop) { run(stop); });
}

TimelineFollower::~TimelineFollower() {
  thread_.request_stop();
}

void TimelineFollower::catch_up(const std::stop_token& stop) {
  if (refresh_) refresh_();
  const uint64_t head = head_();
  const uint64_t first = reader_.first_seq();
  uint64_t from = index_.last_seq() + 1;
  // Retention cut records the index still holds: start over at the oldest retained one.
  if (from < first || index_.first_seq() < first) from = first;
  if (first == 0 || from > head) return;
  journal::RecordCursor cursor(reader_.store(), from, head);
  while (!stop.stop_requested()) {
    auto record = cursor.next();
    if (!record.ok()) {
      KQ_LOG_WARNING("console timeline: reading the journal after seq {} failed: {}", index_.last_seq(),
                     record.message());
      return;
    }
    if (!record->has_value()) return;
    const journal::StoredRecord& r = **record;
    index_.add(r.seq(), r.time(), record_moments(r));
  }
}

void TimelineFollower::run(const std::stop_token& stop) {
  std::mutex mu;
  std::condition_variable_any wake;
  while (!stop.stop_requested()) {
    catch_up(stop);
    std::unique_lock lock(mu);
    wake.wait_for(lock, stop, period_, [] { return false; });
  }
}

}  // namespace koordq::console
