// Keeps a TimelineIndex up with a journal (docs/behaviour.md §25.2): on its own thread it indexes
// every record up to the head once, then the new ones every period, so the page shows the strip
// of a 10M-record journal as it fills and follows a journal being written.
#pragma once

#include <chrono>
#include <functional>
#include <stop_token>
#include <thread>

#include "console/timeline_index.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::console {

class TimelineFollower {
 public:
  // `reader` is used from the follower's thread only (a read-only instance of its own, or the
  // serving journal's reader, whose reads are thread-safe); `refresh` catches a read-only
  // instance up first and may be empty.
  TimelineFollower(journal::JournalReader& reader, std::function<uint64_t()> head, std::function<void()> refresh,
                   std::chrono::milliseconds period = std::chrono::milliseconds(500));
  ~TimelineFollower();
  TimelineFollower(const TimelineFollower&) = delete;
  TimelineFollower& operator=(const TimelineFollower&) = delete;

  const TimelineIndex& index() const { return index_; }

 private:
  void run(const std::stop_token& stop);
  void catch_up(const std::stop_token& stop);

  journal::JournalReader& reader_;
  std::function<uint64_t()> head_;
  std::function<void()> refresh_;
  std::chrono::milliseconds period_;
  TimelineIndex index_;
  std::jthread thread_;
};

}  // namespace koordq::console
