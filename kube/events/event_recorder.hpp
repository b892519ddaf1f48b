// The leader's Events (behaviour.md §13.2): named from the journal, correlated as client-go's
// default recorder correlates (event_correlator.hpp), written by a worker thread with POST (a
// first occurrence) or PATCH (a repeat; a 404 falls back to POST). A write without an answer, or
// answered 429 or 5xx, is retried `max_retries` times `retry_interval` apart, then dropped; a POST
// answered 409 AlreadyExists (another journal's event of that name) is dropped and logged at
// --v=4; any other error answer is logged and dropped. Events are written one at a time, in the
// order recorded.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "actors/core/decision.hpp"
#include "actors/core/scheduler.hpp"
#include "kube/client/cancellation.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/write_fence.hpp"
#include "kube/events/event_correlator.hpp"

namespace koordq::kube {

struct EventToRecord {
  actors::KubeEvent event;
  uint64_t seq = 0;         // seq of the record whose application produces the event
  uint32_t name_index = 0;  // 0-based index among the events that record produces for the same involved object
  uint32_t decision_index = 0, write_index = 0;  // for the outcome
  actors::Target target;                         // the decision's target, for the outcome
};

// `<involved name>.<16 lowercase hex digits of seq × 256 + index>`.
std::string event_name(const std::string& involved_name, uint64_t seq, uint32_t name_index);

struct EventRecorderOptions {
  std::string reporting_instance;  // the leader identity
  std::function<int64_t()> now;    // unix nanoseconds, for timestamps and the correlator; empty: the system clock
  // The final answer to each written event (write_kind kEvent, the decision's target), called on the
  // recorder's thread; not called for events dropped by the rate limit, by stop() or by a full queue.
  std::function<void(const actors::Outcome&)> on_outcome;
  std::chrono::milliseconds retry_interval{10000};
  int max_retries = 12;
  size_t max_queued = 1000;  // events waiting beyond this are dropped (logged), as client-go's broadcaster does
  CorrelatorSettings correlator;
  // The leader's fence (write_fence.hpp): events of the reign the recorder was made in; once it
  // admits nothing, events are dropped unsent. Empty: unfenced (the replica's own Pod's events).
  const WriteFence* fence = nullptr;
};

class EventRecorder {
 public:
  EventRecorder(HttpClient& client, EventRecorderOptions options);
  ~EventRecorder();
  EventRecorder(const EventRecorder&) = delete;
  EventRecorder& operator=(const EventRecorder&) = delete;

  // Never blocks on the network: the event is queued with the current time.
  void record(EventToRecord e);
  // Stops sending (a request in flight or a retry wait ends at once), drops what is queued; joins.
  // Later record() calls are ignored. Idempotent.
  void stop();

 private:
  struct Queued {
    EventToRecord e;
    int64_t time = 0;
  };
  void run();
  void write(const Queued& queued);

  HttpClient& client_;
  EventRecorderOptions options_;
  EventCorrelator correlator_;  // the worker's only
  FencePass pass_;
  Cancellation cancellation_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<Queued> queue_;
  bool stopping_ = false;
  std::mutex join_mutex_;  // stop() from two threads joins once
  std::thread worker_;
};

}  // namespace koordq::kube
