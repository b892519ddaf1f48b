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
// The spec.queue patch carries the resourceVersion the landed status write produced (or the
// decision's, when it goes alone); on 409 it is repeated on the fresh object while the unit has
// the spec and labels the decision saw, otherwise abandoned (outcome conflict).
// Queue patches, status writes and deletes carry the Queue's resourceVersion as the decision saw
// it, moved on past the writer's own landed writes to that Queue (§14.4). A patch answered 409 is
// sent again on the Queue as a GET returns it (koordq owns what it writes there), at most
// max_conflict_repeats times; a delete answered 409 is reported, and a later round decides again.
//
// Fenced (behaviour.md §19): every request carries the FencePass of the reign current when the
// writer was made, checked by HttpClient immediately before it leaves. A write the fence holds
// back while the reign lasts (the renewal is late) waits as a retry does; once the reign has ended
// the writer drops everything queued and sends nothing more, with no outcome (as stop()).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "actors/core/decision.hpp"
#include "actors/core/scheduler.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/write_fence.hpp"
#include "kube/writer/unit_write_queue.hpp"

namespace koordq::kube {

struct QueueWriteJob {
  std::string name;  // the Queue, in the queue namespace
  actors::QueueWrite write;
  std::string resource_version;  // the Queue's as the decision saw it: the precondition (not of a create)
  uint64_t decision_seq = 0;
  uint32_t decision_index = 0;
};

struct ApiWriterOptions {
  std::string queue_namespace = "koord-queue";
  std::function<int64_t()> now;  // unix nanoseconds
  std::function<void(const actors::Outcome&)> on_outcome;
  int64_t retry_interval_ns = 1'000'000'000;  // §7.3: 1 s ± 10 %
  int max_conflict_repeats = 5;               // 409s in a row before a write is abandoned
  const WriteFence* fence = nullptr;          // the leader's; empty: unfenced (tests, tools)
};

struct ApiWriterStats {
  std::atomic<uint64_t> status_sent{0};
  std::atomic<uint64_t> conflicts{0};
  std::atomic<uint64_t> repeated{0};
  std::atomic<uint64_t> retries{0};
  std::atomic<uint64_t> queue_sent{0};
  std::atomic<uint64_t> fenced{0};  // writes the fence held back (each attempt counted)
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
  enum class Sent { kDone, kRetry, kFenced };
  Sent spec_queue_not_sent(const UnitWrite& w);
  Result<Response> send(Request request, Cancellation* cancellation);  // with the fence pass
  void drop_queued_for_ended_reign();                                  // under mu_
  void run_units();
  void run_queues();
  Sent send_unit(UnitWrite& write);
  Sent send_queue(const QueueWriteJob& job);
  // What a write repeated after a 409 needs of the fresh unit besides its uid.
  enum class RepeatWhile {
    kSameUnit,           // a message-only status write: rebuilt on whatever the unit now is
    kSameSpecAndLabels,  // spec.queue: the unit is not being deleted and has the decision's spec and labels
    kWaitingAsSeen,      // a phase-changing status write: that, and still in the decision's phase
  };
  // The unit after a 409: its resourceVersion when the write is to be repeated on it, else how
  // the write ends (not found, conflict, or the GET's own failure).
  struct Reread {
    std::optional<Sent> ends;  // kRetry (GET failed) or kDone (cancelled)
    bool not_found = false;
    std::optional<std::string> repeat_on;  // the fresh resourceVersion
  };
  Reread reread(const UnitWrite& w, RepeatWhile condition, int repeat);
  // The precondition of a Queue write: `rv` moved on past this writer's own landed writes.
  std::string queue_precondition(const std::string& name, const std::string& rv);
  // The outcome of one write of `w`, at the address of the decision it came from.
  void report(const UnitWrite& w, actors::WriteKind kind, actors::OutcomeResult result, int code,
              const std::string& rv);
  int64_t jittered_retry();
  // A request the fence held back: counted, logged once; true when its reign has ended (the caller
  // drops what is queued).
  bool held_back(const Result<Response>& answer);

  HttpClient& client_;
  ApiWriterOptions options_;
  ApiWriterStats stats_;
  FencePass pass_;
  std::atomic<bool> fence_logged_{false};
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  bool reign_ended_ = false;  // the fence's reign of this writer ended: nothing more is sent
  UnitWriteQueue units_;
  std::deque<QueueWriteJob> queues_;
  // The queue thread's only: per Queue, the resourceVersion each landed write produced from the one
  // it was sent with, until the decisions' view of that Queue moves past them.
  std::map<std::string, std::map<std::string, std::string>> queue_rv_successors_;
  Cancellation cancel_units_;
  Cancellation cancel_queues_;
  uint64_t jitter_state_;
  std::thread unit_thread_;
  std::thread queue_thread_;
};

}  // namespace koordq::kube
