#include "kube/writer/api_writer.hpp"

#include <chrono>
#include <utility>
#include <variant>

#include <rapidjson/document.h>

#include "actors/core/unit_facts.hpp"
#include "base/log.hpp"
#include "kube/writer/write_bodies.hpp"
#include "schema/json_decode.hpp"

namespace koordq::kube {
namespace {

using actors::OutcomeResult;

bool retryable(int status) {
  return status == 429 || status >= 500;
}

std::string resource_version_of(const std::string& body) {
  rapidjson::Document doc;
  doc.Parse(body.data(), body.size());
  if (doc.HasParseError() || !doc.IsObject()) return {};
  auto meta = doc.FindMember("metadata");
  if (meta == doc.MemberEnd() || !meta->value.IsObject()) return {};
  auto rv = meta->value.FindMember("resourceVersion");
  if (rv == meta->value.MemberEnd() || !rv->value.IsString()) return {};
  return {rv->value.GetString(), rv->value.GetStringLength()};
}

OutcomeResult result_of(int status) {
  if (status >= 200 && status < 300) return OutcomeResult::kSuccess;
  if (status == 404) return OutcomeResult::kNotFound;
  if (status == 409) return OutcomeResult::kConflict;
  return OutcomeResult::kError;
}

}  // namespace

ApiWriter::ApiWriter(HttpClient& client, ApiWriterOptions options)
    : client_(client),
      options_(std::move(options)),
      pass_(FencePass::of_current_reign(options_.fence)),
      jitter_state_(static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) | 1) {
  unit_thread_ = std::thread([this] { run_units(); });
  queue_thread_ = std::thread([this] { run_queues(); });
}

ApiWriter::~ApiWriter() {
  stop();
}

void ApiWriter::submit(UnitWrite write) {
  {
    std::lock_guard lock(mu_);
    if (stopping_ || reign_ended_) return;
    units_.push(std::move(write), options_.now());
  }
  cv_.notify_all();
}

void ApiWriter::submit(QueueWriteJob job) {
  {
    std::lock_guard lock(mu_);
    if (stopping_ || reign_ended_) return;
    queues_.push_back(std::move(job));
  }
  cv_.notify_all();
}

void ApiWriter::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    units_.clear();
    queues_.clear();
  }
  cv_.notify_all();
  cancel_units_.cancel();
  cancel_queues_.cancel();
  if (unit_thread_.joinable()) unit_thread_.join();
  if (queue_thread_.joinable()) queue_thread_.join();
}

size_t ApiWriter::pending() const {
  std::lock_guard lock(mu_);
  return units_.size() + queues_.size();
}

Result<Response> ApiWriter::send(Request request, Cancellation* cancellation) {
  request.fence = pass_;
  return client_.send(request, cancellation);
}

bool ApiWriter::held_back(const Result<Response>& answer) {
  if (answer.ok()) return false;
  Status admitted = pass_.admits();
  if (admitted.ok()) return false;
  stats_.fenced.fetch_add(1);
  if (!fence_logged_.exchange(true)) KQ_LOG_INFO("API writes held back by the leadership fence: {}", answer.message());
  return true;
}

void ApiWriter::drop_queued_for_ended_reign() {
  if (pass_.fence == nullptr || pass_.fence->reign() == pass_.reign) return;
  if (!reign_ended_) {
    KQ_LOG_INFO("leadership ended: {} queued API writes dropped unsent", units_.size() + queues_.size());
  }
  reign_ended_ = true;
  units_.clear();
  queues_.clear();
}

int64_t ApiWriter::jittered_retry() {
  // xorshift: the jitter needs no quality, only spread (±10 %).
  jitter_state_ ^= jitter_state_ << 13;
  jitter_state_ ^= jitter_state_ >> 7;
  jitter_state_ ^= jitter_state_ << 17;
  const int64_t spread = options_.retry_interval_ns / 5;
  const int64_t offset = spread > 0 ? static_cast<int64_t>(jitter_state_ % static_cast<uint64_t>(spread)) : 0;
  return options_.retry_interval_ns - spread / 2 + offset;
}

void ApiWriter::run_units() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    const int64_t now = options_.now();
    std::optional<UnitWrite> write = units_.pop(now);
    if (!write) {
      const auto due = units_.next_due();
      if (!due) {
        cv_.wait(lock);
      } else {
        cv_.wait_for(lock, std::chrono::nanoseconds(std::max<int64_t>(*due - now, 1'000'000)));
      }
      continue;
    }
    lock.unlock();
    const Sent sent = send_unit(*write);
    lock.lock();
    if (stopping_) break;
    if (sent == Sent::kFenced) {
      units_.retry_at(std::move(*write), options_.now() + jittered_retry());
      drop_queued_for_ended_reign();
    } else if (sent == Sent::kRetry) {
      stats_.retries.fetch_add(1);
      units_.retry_at(std::move(*write), options_.now() + jittered_retry());
    } else if (write->failure) {
      units_.failure_sent(unit_write_key(*write), options_.now(), write->backoff_ns);
    }
  }
}

void ApiWriter::report(const UnitWrite& w, actors::WriteKind kind, OutcomeResult result, int code,
                       const std::string& rv) {
  const bool spec_queue = kind == actors::WriteKind::kSpecQueuePatch;
  if (!options_.on_outcome) return;
  actors::Outcome o;
  o.decision_seq = spec_queue ? w.spec_queue_seq : w.decision_seq;
  o.decision_index = spec_queue ? w.spec_queue_index : w.decision_index;
  o.write_kind = kind;
  o.result = result;
  o.http_code = code;
  o.resource_version = rv;
  o.target = w.unit;
  options_.on_outcome(o);
}

ApiWriter::Sent ApiWriter::send_unit(UnitWrite& w) {
  if (w.status) {
    std::string rv = w.status->resource_version;
    for (int repeat = 0;; ++repeat) {
      auto answer = send(status_patch_request(w.unit, *w.status, rv), &cancel_units_);
      if (cancel_units_.cancelled()) return Sent::kDone;
      if (held_back(answer)) {
        w.status->resource_version = rv;
        return Sent::kFenced;
      }
      if (!answer.ok()) {
        KQ_V(2)("status write for {}/{} failed, retrying: {}", w.unit.namespace_, w.unit.name, answer.message());
        w.status->resource_version = rv;
        return Sent::kRetry;
      }
      const int code = answer->status;
      if (retryable(code)) {
        w.status->resource_version = rv;
        return Sent::kRetry;
      }
      if (code != 409) {
        stats_.status_sent.fetch_add(1);
        if (code >= 400 && code != 404) {
          KQ_LOG_ERROR("status write for {}/{} answered {}: {}", w.unit.namespace_, w.unit.name, code,
                       answer->body.substr(0, 512));
        }
        const std::string written = answer->ok() ? resource_version_of(answer->body) : std::string();
        report(w, actors::WriteKind::kStatusPatch, result_of(code), code, written);
        if (!answer->ok()) return spec_queue_not_sent(w);
        w.status.reset();                                    // landed: a retry of the spec.queue patch sends that alone
        if (!written.empty()) w.resource_version = written;  // spec.queue's precondition
        break;
      }
      stats_.conflicts.fetch_add(1);
      Reread fresh = reread(w, w.changes_phase ? RepeatWhile::kWaitingAsSeen : RepeatWhile::kSameUnit, repeat);
      if (fresh.ends) {
        w.status->resource_version = rv;
        return *fresh.ends;
      }
      if (fresh.not_found) {
        report(w, actors::WriteKind::kStatusPatch, OutcomeResult::kNotFound, 404, "");
        return spec_queue_not_sent(w);
      }
      if (!fresh.repeat_on) {
        report(w, actors::WriteKind::kStatusPatch, OutcomeResult::kConflict, 409, "");
        return spec_queue_not_sent(w);
      }
      stats_.repeated.fetch_add(1);
      rv = *fresh.repeat_on;
    }
  }
  for (int repeat = 0; w.spec_queue; ++repeat) {
    auto answer = send(spec_queue_patch_request(w.unit, *w.spec_queue, w.resource_version), &cancel_units_);
    if (cancel_units_.cancelled()) return Sent::kDone;
    if (held_back(answer)) return Sent::kFenced;
    if (answer.ok() && answer->status == 409 && !w.resource_version.empty()) {
      stats_.conflicts.fetch_add(1);
      Reread fresh = reread(w, RepeatWhile::kSameSpecAndLabels, repeat);
      if (fresh.ends) return *fresh.ends;
      if (fresh.repeat_on) {
        stats_.repeated.fetch_add(1);
        w.resource_version = *fresh.repeat_on;
        continue;
      }
      report(w, actors::WriteKind::kSpecQueuePatch,
             fresh.not_found ? OutcomeResult::kNotFound : OutcomeResult::kConflict, fresh.not_found ? 404 : 409, "");
      return Sent::kDone;
    }
    if (!answer.ok() || retryable(answer->status)) {
      KQ_V(2)
      ("spec.queue write for {}/{} failed, retrying: {}", w.unit.namespace_, w.unit.name,
       answer.ok() ? "answered " + std::to_string(answer->status) : answer.message());
      return Sent::kRetry;
    }
    const int code = answer->status;
    if (code >= 400 && code != 404) {
      KQ_LOG_ERROR("spec.queue write for {}/{} answered {}: {}", w.unit.namespace_, w.unit.name, code,
                   answer->body.substr(0, 512));
    }
    report(w, actors::WriteKind::kSpecQueuePatch, result_of(code), code,
           answer->ok() ? resource_version_of(answer->body) : std::string());
    break;
  }
  return Sent::kDone;
}

// 409: look at the object as it is now (§7.3).
ApiWriter::Reread ApiWriter::reread(const UnitWrite& w, RepeatWhile condition, int repeat) {
  Reread out;
  Request get;
  get.target = queue_unit_path(w.unit.namespace_, w.unit.name);
  auto fresh = client_.send(get, &cancel_units_);
  if (cancel_units_.cancelled()) {
    out.ends = Sent::kDone;
    return out;
  }
  if (!fresh.ok() || retryable(fresh->status)) {
    out.ends = Sent::kRetry;
    return out;
  }
  if (fresh->status == 404) {
    out.not_found = true;
    return out;
  }
  schema::JsonDecoder decoder;
  auto decoded = fresh->ok()
                     ? decoder.decode_object(fresh->body, schema::ObjectKind::kQueueUnit, schema::RawObjectMode::kOff)
                     : Result<schema::DecodedObject>(make_error("GET answered " + std::to_string(fresh->status)));
  const auto* unit = decoded.ok() ? std::get_if<schema::QueueUnit>(&decoded->object) : nullptr;
  if (unit == nullptr || unit->metadata.uid != w.unit.uid || repeat >= options_.max_conflict_repeats) return out;
  const bool view_holds =
      !unit->metadata.deletion_timestamp && unit->spec == w.observed_spec && unit->metadata.labels == w.observed_labels;
  const bool phase_holds = actors::effective_phase(unit->status.phase) == actors::effective_phase(w.observed_phase);
  switch (condition) {
    case RepeatWhile::kSameUnit:
      break;
    case RepeatWhile::kWaitingAsSeen:
      if (!phase_holds) return out;
      [[fallthrough]];
    case RepeatWhile::kSameSpecAndLabels:
      if (!view_holds) return out;
      break;
  }
  out.repeat_on = unit->metadata.resource_version;
  return out;
}

// §7.3: spec.queue follows a landed status only; one that is not sent is answered `unknown`, so
// a later round writes it again.
ApiWriter::Sent ApiWriter::spec_queue_not_sent(const UnitWrite& w) {
  if (w.spec_queue) report(w, actors::WriteKind::kSpecQueuePatch, OutcomeResult::kUnknown, 0, "");
  return Sent::kDone;
}

void ApiWriter::run_queues() {
  std::unique_lock lock(mu_);
  while (!stopping_) {
    if (queues_.empty()) {
      cv_.wait(lock);
      continue;
    }
    QueueWriteJob job = std::move(queues_.front());
    queues_.pop_front();
    lock.unlock();
    const Sent sent = send_queue(job);
    lock.lock();
    if (sent != Sent::kFenced || stopping_) continue;
    // Held back: first in line again, after a retry interval (or dropped when the reign ended).
    queues_.push_front(std::move(job));
    drop_queued_for_ended_reign();
    cv_.wait_for(lock, std::chrono::nanoseconds(jittered_retry()), [this] { return stopping_; });
  }
}

std::string ApiWriter::queue_precondition(const std::string& name, const std::string& rv) {
  auto found = queue_rv_successors_.find(name);
  if (rv.empty() || found == queue_rv_successors_.end()) return rv;
  std::map<std::string, std::string>& successors = found->second;
  if (!successors.count(rv)) {  // the decisions have seen the Queue past this writer's writes
    queue_rv_successors_.erase(found);
    return rv;
  }
  std::string current = rv;
  for (size_t steps = 0; steps <= successors.size(); ++steps) {
    auto next = successors.find(current);
    if (next == successors.end()) break;
    current = next->second;
  }
  return current;
}

// §14.1, §14.4: a Queue write that fails is reported; the decision logic writes again at a later
// round.
ApiWriter::Sent ApiWriter::send_queue(const QueueWriteJob& job) {
  const bool creates = std::holds_alternative<schema::Queue>(job.write);
  const bool deletes = std::holds_alternative<actors::QueueDelete>(job.write);
  std::string precondition = creates ? std::string() : queue_precondition(job.name, job.resource_version);
  Result<Response> answer = make_error("not sent");
  for (int repeat = 0;; ++repeat) {
    answer = send(queue_write_request(options_.queue_namespace, job.name, job.write, precondition), &cancel_queues_);
    if (cancel_queues_.cancelled()) return Sent::kDone;
    if (held_back(answer)) return Sent::kFenced;
    if (answer.ok() && answer->ok() && !precondition.empty()) {
      if (const std::string written = resource_version_of(answer->body); !written.empty()) {
        queue_rv_successors_[job.name][precondition] = written;
      }
    }
    if (!answer.ok() || answer->status != 409 || precondition.empty()) break;
    queue_rv_successors_.erase(job.name);
    stats_.conflicts.fetch_add(1);
    // 409 on a patch: the Queue changed since the decision. What koordq writes there (queue item
    // details, usage annotations, the auto Queue's policy and labels) is its own, so the patch is
    // sent again on the Queue as it is now, as a message-only unit status write is (§7.6). A delete
    // is reported: a later round decides again.
    if (deletes || repeat >= options_.max_conflict_repeats) break;
    Request get;
    get.target = queue_path(options_.queue_namespace, job.name);
    auto fresh = client_.send(get, &cancel_queues_);
    if (cancel_queues_.cancelled()) return Sent::kDone;
    if (!fresh.ok() || !fresh->ok()) {
      if (fresh.ok() && fresh->status == 404) answer = *fresh;  // the Queue is gone
      break;
    }
    const std::string current = resource_version_of(fresh->body);
    if (current.empty()) break;
    stats_.repeated.fetch_add(1);
    precondition = current;
  }
  stats_.queue_sent.fetch_add(1);
  actors::Outcome o;
  o.decision_seq = job.decision_seq;
  o.decision_index = job.decision_index;
  o.write_kind = actors::WriteKind::kQueueWrite;
  o.target = actors::QueueRef{job.name};
  if (!answer.ok()) {
    KQ_LOG_ERROR("write of Queue {}/{} failed: {}", options_.queue_namespace, job.name, answer.message());
    o.result = OutcomeResult::kError;
  } else {
    o.http_code = answer->status;
    o.result = result_of(answer->status);
    if (answer->ok()) o.resource_version = resource_version_of(answer->body);
    if (!answer->ok() && answer->status != 404 && answer->status != 409) {
      KQ_LOG_ERROR("write of Queue {}/{} answered {}: {}", options_.queue_namespace, job.name, answer->status,
                   answer->body.substr(0, 512));
    }
  }
  if (options_.on_outcome) options_.on_outcome(o);
  return Sent::kDone;
}

}  // namespace koordq::kube
