#include "kube/events/event_recorder.hpp"

#include <chrono>
#include <utility>

#include <fmt/format.h>

#include "base/log.hpp"
#include "kube/client/retry_policy.hpp"
#include "kube/events/event_json.hpp"

namespace koordq::kube {
namespace {

int64_t system_now() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

actors::OutcomeResult outcome_result(const Result<Response>& answer) {
  if (!answer.ok()) return actors::OutcomeResult::kUnknown;
  if (answer->ok()) return actors::OutcomeResult::kSuccess;
  if (answer->status == 409) return actors::OutcomeResult::kConflict;
  if (answer->status == 404) return actors::OutcomeResult::kNotFound;
  return actors::OutcomeResult::kError;
}

// An error answer for the log: the start of its body (an API Status), never more than a line.
std::string answer_text(const Result<Response>& answer) {
  if (!answer.ok()) return answer.message();
  std::string body = answer->body.substr(0, 300);
  for (char& c : body) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return fmt::format("HTTP {}: {}", answer->status, body);
}

}  // namespace

std::string event_name(const std::string& involved_name, uint64_t seq, uint32_t name_index) {
  return fmt::format("{}.{:016x}", involved_name, seq * 256 + name_index);
}

EventRecorder::EventRecorder(HttpClient& client, EventRecorderOptions options)
    : client_(client),
      options_(std::move(options)),
      correlator_(kEventComponent, options_.reporting_instance, options_.correlator),
      pass_(FencePass::of_current_reign(options_.fence)) {
  if (!options_.now) options_.now = system_now;
  worker_ = std::thread([this] { run(); });
}

EventRecorder::~EventRecorder() {
  stop();
}

void EventRecorder::record(EventToRecord e) {
  const int64_t time = options_.now();
  std::lock_guard lock(mutex_);
  if (stopping_) return;
  if (queue_.size() >= options_.max_queued) {
    KQ_LOG_WARNING("event {} on {}/{} dropped: {} events are waiting to be written", e.event.reason,
                   e.event.involved_object.namespace_, e.event.involved_object.name, queue_.size());
    return;
  }
  queue_.push_back(Queued{std::move(e), time});
  wake_.notify_one();
}

void EventRecorder::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
  }
  wake_.notify_all();
  cancellation_.cancel();
  std::lock_guard join(join_mutex_);
  if (worker_.joinable() && worker_.get_id() != std::this_thread::get_id()) worker_.join();
}

void EventRecorder::run() {
  for (;;) {
    Queued next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    write(next);
  }
}

void EventRecorder::write(const Queued& queued) {
  const actors::KubeEvent& event = queued.e.event;
  const actors::ObjectRef& object = event.involved_object;
  EventFacts facts{object, event.warning ? "Warning" : "Normal", event.reason, event.message,
                   event_name(object.name, queued.e.seq, queued.e.name_index)};
  const CorrelatedEvent correlated = correlator_.correlate(facts, queued.time);
  if (correlated.skip) {
    KQ_V(4)
    ("event {} on {} {}/{} dropped by the rate limit: {}", event.reason, object.kind, object.namespace_, object.name,
     event.message);
    return;
  }
  if (correlated.aggregated) {
    KQ_V(4)
    ("event {} on {} {}/{} aggregated: {}", event.reason, object.kind, object.namespace_, object.name,
     correlated.message);
  }
  EventBody body{object.namespace_.empty() ? "default" : object.namespace_,
                 correlated.name,
                 object,
                 facts.type,
                 event.reason,
                 correlated.message,
                 correlated.count,
                 correlated.first_timestamp,
                 correlated.last_timestamp,
                 options_.reporting_instance};

  actors::Outcome outcome;
  outcome.decision_seq = queued.e.seq;
  outcome.decision_index = queued.e.decision_index;
  outcome.write_kind = actors::WriteKind::kEvent;
  outcome.write_index = queued.e.write_index;
  outcome.target = queued.e.target;

  bool update = correlated.update;
  for (int retries = 0;;) {
    Request request;
    if (update) {
      request.verb = Verb::kPatch;
      request.target = event_path(body.namespace_, body.name);
      request.body = event_update_body(body);
    } else {
      request.verb = Verb::kPost;
      request.target = events_path(body.namespace_);
      request.body = event_create_body(body);
    }
    request.fence = pass_;
    Result<Response> answer = client_.send(request, &cancellation_);
    if (cancellation_.cancelled()) return;
    if (!answer.ok() && pass_.closed()) {
      KQ_V(2)
      ("event {} on {} {}/{} dropped: {}", event.reason, object.kind, object.namespace_, object.name, answer.message());
      return;
    }
    if (answer.ok() && update && answer->status == 404) {  // the event expired: create it anew
      update = false;
      continue;
    }
    const bool done = answer.ok() && (answer->ok() || (!update && answer->status == 409));
    const bool transient = !answer.ok() || is_retryable_status(answer->status);
    if (!done && transient && retries < options_.max_retries) {
      ++retries;
      if (!cancellation_.wait_for(options_.retry_interval)) return;
      continue;
    }
    if (answer.ok() && answer->ok()) {
      WrittenEvent written = parse_written_event(answer->body);
      EventFacts as_written = facts;
      as_written.name = body.name;
      as_written.message = body.message;
      correlator_.update_state(as_written, written.count.value_or(body.count),
                               written.first_timestamp.value_or(body.first_timestamp));
      outcome.resource_version = written.resource_version;
    } else if (answer.ok() && answer->status == 409) {
      KQ_V(4)("event {} already exists (written by another journal); dropped", body.name);
    } else {
      KQ_LOG_ERROR("event {} {} on {} {}/{}: {} {} failed{}: {}; dropped", event.reason, body.name, object.kind,
                   object.namespace_, object.name, verb_name(request.verb), request.target,
                   transient ? fmt::format(" after {} retries", retries) : "", answer_text(answer));
    }
    outcome.result = outcome_result(answer);
    outcome.http_code = answer.ok() ? answer->status : 0;
    if (options_.on_outcome) options_.on_outcome(outcome);
    return;
  }
}

}  // namespace koordq::kube
