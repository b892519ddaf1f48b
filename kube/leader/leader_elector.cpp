#include "kube/leader/leader_elector.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "base/log.hpp"
#include "kube/leader/pod_label.hpp"

namespace koordq::kube {
namespace {

using std::chrono::milliseconds;
using std::chrono::nanoseconds;
using std::chrono::steady_clock;

int64_t to_nanos(milliseconds d) {
  return std::chrono::duration_cast<nanoseconds>(d).count();
}

// The wall clock read once, advanced by the monotonic clock: Lease times near the wall clock,
// expiry judgements immune to clock steps (as Go's monotonic time readings are).
std::function<int64_t()> anchored_clock() {
  const auto wall = std::chrono::system_clock::now();
  const auto start = steady_clock::now();
  return [wall, start] {
    return std::chrono::duration_cast<nanoseconds>(wall.time_since_epoch() + (steady_clock::now() - start)).count();
  };
}

// A Cancellation that fires by itself after `timeout`: the bound on one request, as the context
// deadline of client-go's renew loop bounds it.
class TimedCancellation {
 public:
  explicit TimedCancellation(milliseconds timeout)
      : watchdog_([this, timeout] {
          std::unique_lock lock(mutex_);
          if (!done_changed_.wait_for(lock, timeout, [this] { return done_; })) cancellation.cancel();
        }) {}
  ~TimedCancellation() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    done_changed_.notify_all();
    watchdog_.join();
  }

  Cancellation cancellation;

 private:
  std::mutex mutex_;
  std::condition_variable done_changed_;
  bool done_ = false;
  std::thread watchdog_;
};

std::string describe(const Result<Response>& answer) {
  if (!answer.ok()) return answer.message();
  std::string body = answer->body.substr(0, 300);
  std::replace(body.begin(), body.end(), '\n', ' ');
  return fmt::format("HTTP {}: {}", answer->status, body);
}

Request make_request(Verb verb, std::string target, std::string body = {}) {
  Request request;
  request.verb = verb;
  request.target = std::move(target);
  request.body = std::move(body);
  return request;
}

}  // namespace

LeaderElector::LeaderElector(HttpClient& client, LeaderElectionOptions options, LeaderCallbacks callbacks)
    : client_(client), options_(std::move(options)), callbacks_(std::move(callbacks)), jitter_(std::random_device{}()) {
  if (!options_.now) options_.now = anchored_clock();
}

LeaderElector::~LeaderElector() {
  stop();
}

void LeaderElector::start() {
  std::lock_guard lock(mutex_);
  if (started_ || stopping_) return;
  started_ = true;
  thread_ = std::thread([this] { run(); });
}

void LeaderElector::release() {
  {
    std::lock_guard lock(mutex_);
    paused_ = true;
    ++releases_;
    leading_ = false;
    close_fence();
    if (in_flight_ != nullptr && in_flight_ends_on_release_) in_flight_->cancel();
  }
  wake_.notify_all();
}

void LeaderElector::resume() {
  {
    std::lock_guard lock(mutex_);
    paused_ = false;
  }
  wake_.notify_all();
}

void LeaderElector::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    close_fence();
    if (in_flight_ != nullptr) in_flight_->cancel();
  }
  wake_.notify_all();
  std::lock_guard join(join_mutex_);
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

bool LeaderElector::leading() const {
  return leading_.load();
}

std::string LeaderElector::holder() const {
  std::lock_guard lock(mutex_);
  return holder_;
}

bool LeaderElector::stopping() const {
  std::lock_guard lock(mutex_);
  return stopping_;
}

bool LeaderElector::interrupted() const {
  std::lock_guard lock(mutex_);
  return stopping_ || paused_;
}

Result<Response> LeaderElector::send(const Request& request, milliseconds timeout, Interrupt interrupt) {
  TimedCancellation call(std::max(timeout, milliseconds(1)));
  if (interrupt != Interrupt::kNever) {
    std::lock_guard lock(mutex_);
    if (stopping_ || (interrupt == Interrupt::kOnStopOrRelease && paused_)) return make_error("stopped");
    in_flight_ = &call.cancellation;
    in_flight_ends_on_release_ = interrupt == Interrupt::kOnStopOrRelease;
  }
  Result<Response> answer = client_.send(request, &call.cancellation);
  if (interrupt != Interrupt::kNever) {
    std::lock_guard lock(mutex_);
    in_flight_ = nullptr;
  }
  return answer;
}

bool LeaderElector::pause(steady_clock::duration delay, std::optional<uint64_t> releases) {
  std::unique_lock lock(mutex_);
  return !wake_.wait_for(lock, delay, [&] { return stopping_ || (releases && releases_ != *releases); });
}

milliseconds LeaderElector::jittered_retry_period() {
  // client-go's wait.JitterUntil(…, RetryPeriod, 1.2, …): period × (1 + 1.2 × [0, 1)).
  std::uniform_real_distribution<double> unit(0, 1);
  const double factor = 1 + 1.2 * unit(jitter_);
  return milliseconds(static_cast<int64_t>(static_cast<double>(options_.retry_period.count()) * factor));
}

void LeaderElector::run() {
  const bool has_pod = !options_.pod_namespace.empty() && !options_.pod_name.empty();
  if (has_pod) remove_label_at_start();
  for (;;) {
    uint64_t releases = 0;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !paused_; });
      if (stopping_) return;
      releases = releases_;
    }
    if (!legacy_lease_free()) {
      if (!pause(jittered_retry_period())) return;
      continue;
    }
    bool acquired = true;
    if (options_.enabled) {
      acquired = try_acquire_or_renew(options_.renew_deadline);
      report_transition();
    }
    if (!acquired) {
      if (!pause(jittered_retry_period())) return;
      continue;
    }
    const Reign reign = lead(releases);
    if (reign != Reign::kReleased) return;
  }
}

LeaderElector::Reign LeaderElector::lead(uint64_t releases) {
  const bool has_pod = !options_.pod_namespace.empty() && !options_.pod_name.empty();
  auto released = [&] {
    std::lock_guard lock(mutex_);
    return releases_ != releases;
  };
  // A release() or stop() that came while the Lease was being acquired: give it back at once.
  bool interrupted = stopping() || released();
  if (!interrupted) KQ_LOG_INFO("became leader");
  const bool announced = !interrupted;
  if (has_pod && !interrupted) {
    Status labelled = patch_label(true, options_.label_set_timeout, Interrupt::kOnStopOrRelease);
    interrupted = !labelled.ok() && (stopping() || released());
    if (!labelled.ok() && !interrupted) {
      KQ_LOG_ERROR("leader label not set within {} ms: {}; releasing the lease", options_.label_set_timeout.count(),
                   labelled.message());
      close_fence();
      if (options_.enabled) release_lease();
      report_transition();
      if (callbacks_.on_fatal) {
        callbacks_.on_fatal(fmt::format("cannot set label {} on pod {}/{}: {}", kLeaderLabel, options_.pod_namespace,
                                        options_.pod_name, labelled.message()));
      }
      return Reign::kFatal;
    }
  }
  if (!interrupted) {
    {
      std::lock_guard lock(mutex_);
      interrupted = stopping_ || releases_ != releases;
      if (!interrupted) leading_ = true;
      if (!interrupted && !options_.enabled && options_.fence != nullptr) options_.fence->open_indefinitely();
    }
    if (!interrupted && callbacks_.on_started_leading) callbacks_.on_started_leading();
    while (!interrupted) {
      if (!pause(options_.retry_period, releases)) break;
      if (options_.enabled && !renew_within_deadline(releases)) {
        if (stopping() || released()) break;
        // Deciding and writing stop at once; the label removal (at most 5 s) follows, and stop()
        // waits for it.
        leading_ = false;
        close_fence();
        KQ_LOG_INFO("stopped leading");
        if (callbacks_.on_stopped_leading) callbacks_.on_stopped_leading();
        if (has_pod) (void)patch_label(false, options_.label_remove_timeout, Interrupt::kNever);
        return Reign::kLost;
      }
    }
  }
  // Released or stopped: the label goes first, so nothing points at a leader that has given up.
  leading_ = false;
  close_fence();
  if (announced) {
    KQ_LOG_INFO("stopped leading");
    if (has_pod) (void)patch_label(false, options_.label_remove_timeout, Interrupt::kNever);
  }
  if (options_.enabled) release_lease();
  report_transition();
  return stopping() ? Reign::kStopped : Reign::kReleased;
}

bool LeaderElector::renew_within_deadline(uint64_t releases) {
  const int64_t deadline = options_.now() + to_nanos(options_.renew_deadline);
  for (;;) {
    const int64_t remaining = deadline - options_.now();
    if (remaining <= 0) return false;
    const milliseconds timeout =
        std::min(options_.renew_deadline, std::chrono::duration_cast<milliseconds>(nanoseconds(remaining)));
    const bool renewed = try_acquire_or_renew(timeout);
    report_transition();
    if (renewed) return true;
    if (deadline - options_.now() <= 0) return false;
    if (!pause(std::min(nanoseconds(options_.retry_period), nanoseconds(deadline - options_.now())), releases)) {
      return false;
    }
  }
}

void LeaderElector::extend_fence(WriteFence::Clock::time_point started) {
  if (options_.fence == nullptr) return;
  std::lock_guard lock(mutex_);
  if (stopping_ || paused_) return;
  options_.fence->open_until(started + options_.renew_deadline);
}

void LeaderElector::close_fence() {
  if (options_.fence != nullptr) options_.fence->close();
}

bool LeaderElector::try_acquire_or_renew(milliseconds timeout) {
  // Before anything is sent: the renewal counts from no later than the renewTime it writes.
  const auto started = options_.fence != nullptr ? options_.fence->now() : steady_clock::now();
  const int64_t now = options_.now();
  const std::string& ns = options_.lease_namespace;
  const std::string& name = options_.lease_name;
  LeaseRecord record;
  record.holder_identity = options_.identity;
  record.lease_duration_seconds = std::chrono::duration_cast<std::chrono::seconds>(options_.lease_duration).count();
  record.acquire_time = format_micro_time(now);
  record.renew_time = record.acquire_time;

  Result<Response> got = send(make_request(Verb::kGet, lease_path(ns, name)), timeout, Interrupt::kOnStopOrRelease);
  if (got.ok() && got->status == 404) {
    Result<Response> created = send(make_request(Verb::kPost, leases_path(ns), lease_create_body(ns, name, record)),
                                    timeout, Interrupt::kOnStopOrRelease);
    if (!created.ok() || !created->ok()) {
      if (!interrupted()) KQ_LOG_ERROR("error initially creating lease {}/{}: {}", ns, name, describe(created));
      return false;
    }
    observed_.observe(record, now);
    transitions_.store(observed_.record().lease_transitions);
    observed_object_ = created->body;
    extend_fence(started);
    return true;
  }
  if (!got.ok() || !got->ok()) {
    if (!interrupted()) KQ_LOG_ERROR("error retrieving lease {}/{}: {}", ns, name, describe(got));
    return false;
  }
  Result<FetchedLease> fetched = parse_lease(got->body);
  if (!fetched.ok()) {
    KQ_LOG_ERROR("error retrieving lease {}/{}: {}", ns, name, fetched.message());
    return false;
  }
  observed_.observe(fetched->record, now);
  transitions_.store(observed_.record().lease_transitions);
  observed_object_ = fetched->object;
  const LeaseRecord& old = fetched->record;
  const bool is_leader = old.holder_identity == options_.identity;
  if (!old.holder_identity.empty() && !observed_.expired(now, to_nanos(options_.lease_duration)) && !is_leader) {
    KQ_V(4)("lease {}/{} is held by {} and has not yet expired", ns, name, old.holder_identity);
    return false;
  }
  if (is_leader) {
    record.acquire_time = old.acquire_time;
    record.lease_transitions = old.lease_transitions;
  } else {
    record.lease_transitions = old.lease_transitions + 1;
  }
  Result<std::string> body = lease_update_body(observed_object_, record);
  if (!body.ok()) {
    KQ_LOG_ERROR("failed to update lease {}/{}: {}", ns, name, body.message());
    return false;
  }
  Request update = make_request(Verb::kPut, lease_path(ns, name), std::move(*body));
  update.has_precondition = true;
  Result<Response> updated = send(update, timeout, Interrupt::kOnStopOrRelease);
  if (!updated.ok() || !updated->ok()) {
    if (!interrupted()) KQ_LOG_ERROR("failed to update lease {}/{}: {}", ns, name, describe(updated));
    return false;
  }
  observed_.observe(record, now);
  transitions_.store(observed_.record().lease_transitions);
  observed_object_ = updated->body;
  extend_fence(started);
  return true;
}

bool LeaderElector::release_lease() {
  if (!observed_.seen() || observed_.record().holder_identity != options_.identity) return true;
  const int64_t now = options_.now();
  LeaseRecord record;
  record.lease_duration_seconds = 1;
  record.acquire_time = format_micro_time(now);
  record.renew_time = record.acquire_time;
  record.lease_transitions = observed_.record().lease_transitions;
  Result<Response> answer = make_error("");
  for (int attempt = 0; attempt < 2; ++attempt) {
    Result<std::string> body = lease_update_body(observed_object_, record);
    if (!body.ok()) {
      answer = make_error(body.message());
      break;
    }
    Request update = make_request(Verb::kPut, lease_path(options_.lease_namespace, options_.lease_name), *body);
    update.has_precondition = true;
    answer = send(update, options_.renew_deadline, Interrupt::kNever);
    if (attempt > 0 || !answer.ok() || answer->status != 409) break;
    // A renewal interrupted by this release can have landed unanswered: read the Lease again and
    // give it back from there while this replica still holds it.
    Result<Response> got = send(make_request(Verb::kGet, lease_path(options_.lease_namespace, options_.lease_name)),
                                options_.renew_deadline, Interrupt::kNever);
    if (!got.ok() || !got->ok()) break;
    Result<FetchedLease> fetched = parse_lease(got->body);
    if (!fetched.ok()) break;
    if (fetched->record.holder_identity != options_.identity) {
      observed_.observe(fetched->record, now);
      observed_object_ = fetched->object;
      return true;  // held by another replica now: nothing of ours to release
    }
    observed_object_ = fetched->object;
    record.lease_transitions = fetched->record.lease_transitions;
  }
  if (!answer.ok() || !answer->ok()) {
    KQ_LOG_ERROR("failed to release lease {}/{}: {}", options_.lease_namespace, options_.lease_name, describe(answer));
    return false;
  }
  observed_.observe(record, now);
  transitions_.store(observed_.record().lease_transitions);
  observed_object_ = answer->body;
  return true;
}

void LeaderElector::report_transition() {
  const std::string holder = observed_.seen() ? observed_.record().holder_identity : std::string();
  {
    std::lock_guard lock(mutex_);
    holder_ = holder;
  }
  if (holder == reported_leader_) return;
  reported_leader_ = holder;
  if (holder.empty() || holder == options_.identity) return;
  KQ_LOG_INFO("new leader elected: {}", holder);
  if (callbacks_.on_new_leader) callbacks_.on_new_leader(holder);
}

bool LeaderElector::legacy_lease_free() {
  if (!options_.legacy_guard) return true;
  const auto& [ns, name] = *options_.legacy_guard;
  const int64_t now = options_.now();
  Result<Response> got =
      send(make_request(Verb::kGet, lease_path(ns, name)), options_.renew_deadline, Interrupt::kOnStopOrRelease);
  std::string problem;
  std::string holder;
  if (got.ok() && got->status == 404) {
    legacy_.reset();
    guard_logged_ = false;
    return true;
  }
  if (!got.ok() || !got->ok()) {
    problem = describe(got);
  } else if (Result<FetchedLease> lease = parse_lease(got->body); !lease.ok()) {
    problem = lease.message();
  } else {
    holder = lease->record.holder_identity;
    if (holder.empty()) {
      legacy_.reset();
      guard_logged_ = false;
      return true;
    }
    // Held until holder and renewTime have stayed as they are for leaseDurationSeconds.
    LeaseRecord seen;
    seen.holder_identity = holder;
    seen.renew_time = lease->record.renew_time;
    legacy_.observe(seen, now);
    const int64_t duration = lease->record.lease_duration_seconds
                                 ? *lease->record.lease_duration_seconds * 1'000'000'000
                                 : to_nanos(options_.lease_duration);
    if (legacy_.expired(now, duration)) {
      guard_logged_ = false;
      return true;
    }
  }
  {
    std::lock_guard lock(mutex_);
    if (stopping_ || paused_) return false;
  }
  if (!guard_logged_ || now - last_guard_log_ >= to_nanos(options_.guard_log_interval)) {
    guard_logged_ = true;
    last_guard_log_ = now;
    if (problem.empty()) {
      KQ_LOG_INFO("not leading: legacy lease {}/{} is held by {} (--legacy-lease-guard)", ns, name, holder);
    } else {
      KQ_LOG_ERROR("not leading: legacy lease {}/{} cannot be read and counts as held (--legacy-lease-guard): {}", ns,
                   name, problem);
    }
  }
  return false;
}

Status LeaderElector::patch_label(bool set, milliseconds budget, Interrupt interrupt) {
  uint64_t releases = 0;
  {
    std::lock_guard lock(mutex_);
    releases = releases_;
  }
  const Request patch = make_request(Verb::kPatch, pod_path(options_.pod_namespace, options_.pod_name),
                                     set ? leader_label_set_body() : leader_label_remove_body());
  const auto deadline = steady_clock::now() + budget;
  std::string problem = "no attempt within the time allowed";
  bool answered = false;
  for (;;) {
    const auto remaining = std::chrono::duration_cast<milliseconds>(deadline - steady_clock::now());
    if (remaining <= milliseconds(0)) break;
    const auto attempt_deadline = steady_clock::now() + remaining;
    Result<Response> answer = send(patch, remaining, interrupt);
    if (answer.ok() && answer->ok()) return ok_status();
    // An attempt the budget cut off says less than the server's answer to the one before it.
    const bool cut_off = !answer.ok() && steady_clock::now() >= attempt_deadline;
    if (!cut_off || !answered) problem = describe(answer);
    answered = answered || answer.ok();
    const auto wait = std::min<steady_clock::duration>(options_.label_retry_interval, deadline - steady_clock::now());
    if (wait <= steady_clock::duration::zero()) break;
    if (interrupt != Interrupt::kNever) {
      std::optional<uint64_t> ends_on_release;
      if (interrupt == Interrupt::kOnStopOrRelease) ends_on_release = releases;
      if (!pause(wait, ends_on_release)) return make_error("stopped");
    } else {
      std::this_thread::sleep_for(wait);
    }
  }
  if (!set) {
    KQ_LOG_ERROR("cannot remove label {} from pod {}/{}: {}", kLeaderLabel, options_.pod_namespace, options_.pod_name,
                 problem);
  }
  return make_error(problem);
}

void LeaderElector::remove_label_at_start() {
  Result<Response> pod = send(make_request(Verb::kGet, pod_path(options_.pod_namespace, options_.pod_name)),
                              options_.label_remove_timeout, Interrupt::kOnStop);
  if (pod.ok() && pod->ok() && !pod_has_leader_label(pod->body)) return;
  if (stopping()) return;
  (void)patch_label(false, options_.label_remove_timeout, Interrupt::kOnStop);
}

}  // namespace koordq::kube
