// Leader election on a `coordination.k8s.io/v1` Lease (behaviour.md §19), with client-go's
// leaderelection semantics: GET the Lease, create it when missing, else take it over by an update
// carrying the resourceVersion read once the holder's record (holder, renewTime, …) has stayed
// unchanged for the lease duration by this replica's own clock; renewTime, acquireTime and
// leaseTransitions kept as client-go keeps them; renewed every retry period, lost when no renewal
// succeeds within the renew deadline. Around it, koordq's own steps:
//  * at start, its Pod's `koord-queue-leader` label is removed if present;
//  * before every campaign attempt, the legacy Lease guard (Koord-Queue's `default/example-lease`):
//    a holder that has not expired (by its leaseDurationSeconds, on this replica's clock) or a
//    Lease that cannot be read keeps this replica a follower, logged at most once a minute;
//  * on acquiring, `became leader`, then the Pod label, retried for 10 s (failing that, the Lease
//    is released and on_fatal is called); on another holder, `new leader elected: <identity>`; on
//    losing, `stopped leading` and the label removed (at most 5 s).
// Everything runs on the elector's own thread; callbacks are called there and must not block
// (nor call stop(); release() and resume() are fine).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>

#include "kube/client/cancellation.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/write_fence.hpp"
#include "kube/leader/lease_record.hpp"

namespace koordq::kube {

struct LeaderElectionOptions {
  std::string lease_namespace = "koord-queue", lease_name = "koordq";
  std::string identity;  // make_leader_identity()
  std::chrono::milliseconds lease_duration{15000}, renew_deadline{10000}, retry_period{2000};
  std::optional<std::pair<std::string, std::string>> legacy_guard = {{"default", "example-lease"}};  // nullopt: off
  bool enabled = true;  // --leader-elect=false: lead at once (guard still checked first, label still set)
  std::string pod_namespace, pod_name;  // empty: skip the Pod label steps (outside a cluster)

  // Unix nanoseconds for the Lease's times and for every expiry and deadline judgement; empty: the
  // system clock as of construction advanced by the monotonic clock (immune to clock steps).
  // Waits between attempts are real time.
  std::function<int64_t()> now;
  std::chrono::milliseconds label_set_timeout{10000};    // then the Lease is released, on_fatal
  std::chrono::milliseconds label_remove_timeout{5000};  // best effort
  std::chrono::milliseconds label_retry_interval{500};
  std::chrono::minutes guard_log_interval{1};
  // The writers' fence (write_fence.hpp), when given: opened on every successful acquire or
  // renewal until that attempt's start + renew_deadline by the fence's monotonic clock (for good
  // with --leader-elect=false), closed the moment leading ends (lost, release(), stop()).
  WriteFence* fence = nullptr;
};

struct LeaderCallbacks {
  std::function<void()> on_started_leading;  // after the Pod label is set
  // The Lease was lost (not on release()/stop()): called at once; the label removal (at most 5 s)
  // follows on the elector's thread, and stop() waits for it.
  std::function<void()> on_stopped_leading;
  std::function<void(const std::string&)> on_new_leader;  // another holder observed
  // The label could not be set within 10 s: the Lease was released; the process should exit 1.
  std::function<void(const std::string&)> on_fatal;
};

// `<pod>_<random UUID>`: the pod name from env POD_NAME, else the host name.
std::string make_leader_identity();

class LeaderElector {
 public:
  LeaderElector(HttpClient& client, LeaderElectionOptions options, LeaderCallbacks callbacks);
  ~LeaderElector();  // stop()
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // Starts the elector's thread: label removal, then guard → campaign → renew. Once.
  void start();
  // Journal write failure: leading() is false at once; the thread removes the label (at most 5 s)
  // and releases the Lease (empty holder, leaseDurationSeconds 1), then campaigns no more until
  // resume(). Returns without waiting. A follower just stops campaigning.
  void release();
  // Campaigns again after release().
  void resume();
  // Orderly shutdown (SIGTERM): if leading, removes the label and releases the Lease; joins.
  // Idempotent.
  void stop();

  bool leading() const;
  std::string holder() const;  // last observed holder identity ("" unknown or free)
  // leaseTransitions of the Lease as this replica last read or wrote it (the `role` record's).
  int64_t lease_transitions() const { return transitions_.load(); }

 private:
  enum class Reign { kReleased, kStopped, kLost, kFatal };
  // Which calls end a request (and the waits between attempts) early.
  enum class Interrupt { kNever, kOnStop, kOnStopOrRelease };

  void run();
  Reign lead(uint64_t releases);
  bool try_acquire_or_renew(std::chrono::milliseconds timeout);
  // A Lease write that started at `started` (the fence's clock) succeeded: writes may leave until
  // started + renew deadline, unless stop() or release() came meanwhile.
  void extend_fence(WriteFence::Clock::time_point started);
  void close_fence();
  bool renew_within_deadline(uint64_t releases);
  void report_transition();
  bool legacy_lease_free();
  bool release_lease();
  Status patch_label(bool set, std::chrono::milliseconds budget, Interrupt interrupt);
  void remove_label_at_start();

  // Sends with a timeout (real time); ends at once on what `interrupt` names, and is not sent when
  // that has already happened.
  Result<Response> send(const Request& request, std::chrono::milliseconds timeout, Interrupt interrupt);
  // Waits up to `delay`; false when stop() (or, with `releases`, a release()) came first.
  bool pause(std::chrono::steady_clock::duration delay, std::optional<uint64_t> releases = std::nullopt);
  bool stopping() const;
  bool interrupted() const;  // stopping, or released and not resumed
  std::chrono::milliseconds jittered_retry_period();

  HttpClient& client_;
  LeaderElectionOptions options_;
  LeaderCallbacks callbacks_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool started_ = false;
  bool stopping_ = false;
  bool paused_ = false;
  uint64_t releases_ = 0;              // release() calls so far
  Cancellation* in_flight_ = nullptr;  // the interruptible request being sent
  bool in_flight_ends_on_release_ = false;
  std::string holder_;
  std::atomic<bool> leading_{false};
  std::atomic<int64_t> transitions_{0};
  std::mutex join_mutex_;  // stop() from two threads joins once
  std::thread thread_;

  // The elector thread's only.
  LeaseObservation observed_;
  std::string observed_object_;  // the Lease as last read or written, for the next update
  std::string reported_leader_;
  LeaseObservation legacy_;
  int64_t last_guard_log_ = 0;
  bool guard_logged_ = false;
  std::minstd_rand jitter_;
};

}  // namespace koordq::kube
