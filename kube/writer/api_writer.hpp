// The leader's API writes (behaviour.md §7.3, §7.6, §14; design.md §3): QueueUnit status and
// spec.queue through the coalescing UnitWriteQueue, Queue writes in decision order, each on a
// thread of its own. Every final answer becomes an `outcome` (on_outcome), journaled by the
// caller; a write that is replaced, or dropped by stop(), has none: its decision is superseded,
// or the next start synthesises `unknown`.
//
// Answers to a status write (§7.3): 409 → GET the unit; a phase-changing write is repeated on the
// fresh object while it still waits with the spec and labels the decision saw, otherwise it is
// abandoned (outcome conflict); a message-only write is rebuilt on the fresh object and re-sent.
// 404 → not found. 429, 5xx, timeouts → retried after 1 s ± 10 % until stop(). Other 4xx → error.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "actors/core/decision.hpp"
#include "actors/core/scheduler.hpp"
#include "kube/client/http_client.hpp"
#include "kube/writer/unit_write_queue.hpp"

namespace koordq::kube {

struct QueueWriteJob {
  std::string name;  // the Queue, in the queue namespace
  actors::QueueWrite write;
  uint64_t decision_seq = 0;
  uint32_t decision_index = 0;
};

struct ApiWriterOptions {
  std::string queue_namespace = "koord-queue";
  std::function<int64_t()> now;  // unix nanoseconds
  std::function<void(const actors::Outcome&)> on_outcome;
  int64_t retry_interval_ns = 1'000'000'000;  // §7.3: 1 s ± 10 %
  int max_conflict_repeats = 5;               // 409s in a row before a write is abandoned
};

struct ApiWriterStats {
  std::atomic<uint64_t> status_sent{0};
  std::atomic<uint64_t> conflicts{0};
  std::atomic<uint64_t> repeated{0};
  std::atomic<uint64_t> retries{0};
  std::atomic<uint64_t> queue_sent{0};
};

class ApiWriter {
 public:
  ApiWriter(HttpClient& client, ApiWriterOptions options);
  ~ApiWriter();  // stop()
  ApiWriter(const ApiWriter&) = delete;
  ApiWriter& operator=(const ApiWriter&) = delete;

  void submit(UnitWrite write);
  void submit(QueueWriteJob job);
  // Sends nothing more, at once: the request in flight is cancelled, the queues are dropped.
  void stop();
  size_t pending() const;
  const ApiWriterStats& stats() const { return stats_; }

 private:
  enum class Sent { kDone, kRetry };
  Sent spec_queue_not_sent(const UnitWrite& w);
  void run_units();
  void run_queues();
  Sent send_unit(UnitWrite& write);
  void send_queue(const QueueWriteJob& job);
  // The outcome of one write of `w`, at the address of the decision it came from.
  void report(const UnitWrite& w, actors::WriteKind kind, actors::OutcomeResult result, int code,
              const std::string& rv);
  int64_t jittered_retry();

  HttpClient& client_;
  ApiWriterOptions options_;
  ApiWriterStats stats_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  UnitWriteQueue units_;
  std::deque<QueueWriteJob> queues_;
  Cancellation cancel_units_;
  Cancellation cancel_queues_;
  uint64_t jitter_state_;
  std::thread unit_thread_;
  std::thread queue_thread_;
};

}  // namespace koordq::kube
