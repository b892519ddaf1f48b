// A decision state with something in every field, built as records: RecordedRun appends inputs,
// ticks, outcomes and rounds and folds each with apply_record the way the router does, into an
// in-memory chain or a real journal; build_part1..3 fill every field of the state between them.
// Shared by the state snapshot's round-trip, bad-bytes and restore tests.
#pragma once

#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_snapshot.hpp"
#include "journal/journal.hpp"
#include "journal/watch_record.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {

inline constexpr char kRecordedRunUuid[] = "00000000-0000-4000-8000-0000000000aa";

// Inputs and rounds as records, folded with apply_record the way the router does: into an
// in-memory chain, or into a real journal when one is given.
class RecordedRun {
 public:
  // With a journal, its record clock reads `*clock`, which follows `time`.
  explicit RecordedRun(actors::DecisionConfig config = {}, journal::Journal* journal = nullptr,
                       int64_t* clock = nullptr)
      : live(std::move(config)), journal_(journal), clock_(clock), chain_(kRecordedRunUuid) {}

  std::vector<actors::Decision> input(const schema::WatchedObject& o, bool deleted = false) {
    schema::WatchEvent event;
    event.type = deleted ? schema::WatchEventType::kDeleted : schema::WatchEventType::kModified;
    event.object = o;
    append(journal::make_watch_body(event, schema::RawObjectMode::kOff));
    return round();
  }
  std::vector<actors::Decision> tick(int64_t t) {
    time = t;
    append(actors::make_tick_body());
    return round();
  }
  // The answer to the status write of `d`, decided by the round record `round_seq`.
  std::vector<actors::Decision> outcome(const actors::Decision& d, uint64_t round_seq, actors::OutcomeResult result,
                                        const std::string& rv = "") {
    actors::Outcome o;
    o.decision_seq = round_seq;
    o.target = d.target;
    o.result = result;
    o.http_code = result == actors::OutcomeResult::kSuccess ? 200 : 409;
    o.resource_version = rv;
    append(actors::make_outcome_body(o));
    return round();
  }
  void role_acquired() {
    append(actors::make_role_body(actors::RoleEvent::kAcquired, "koordq-0", ++lease_transitions_));
    round();
  }
  std::vector<actors::Decision> round() {
    const uint64_t basis = last_seq();
    auto decisions = live.decide();
    append(actors::make_round_body(basis, decisions));
    last_round_seq = last_seq();
    return decisions;
  }

  uint64_t last_seq() const { return records.empty() ? 0 : records.back().seq(); }
  int64_t last_time() const { return records.empty() ? 0 : records.back().time(); }

  actors::Scheduler live;
  int64_t time = 1000 * kSec;
  uint64_t last_round_seq = 0;
  std::vector<journal::StoredRecord> records;

 private:
  void append(std::unique_ptr<journal::CapnpRecordBody> body) {
    journal::StoredRecord stored =
        journal_ == nullptr ? chain_.append(*body, time) : append_to_journal(std::move(body));
    const auto applied = actors::apply_record(live, stored);
    if (!applied.ok()) throw std::runtime_error(applied.message());
    records.push_back(std::move(stored));
  }

  journal::StoredRecord append_to_journal(std::unique_ptr<journal::CapnpRecordBody> body) {
    *clock_ = time;
    std::promise<Result<journal::AppendedRecord>> done;
    journal_->writer().append(std::move(body), [&](const Result<journal::AppendedRecord>& r) { done.set_value(r); });
    const auto appended = done.get_future().get();
    if (!appended.ok()) throw std::runtime_error(appended.message());
    auto stored = journal_->reader().get(appended->seq);
    if (!stored.ok() || !stored->has_value()) throw std::runtime_error("appended record not readable");
    return std::move(**stored);
  }

  journal::Journal* journal_;
  int64_t* clock_;
  RecordChain chain_;
  int32_t lease_transitions_ = 0;
};

inline const schema::StringMap kPreemptive = {{"koord-queue/wait-for-pods-running", "true"},
                                              {"koord-queue/enable-queueunit-preemption", "true"}};

inline schema::QueueUnit observed(const std::string& name, const std::string& quota_label, const std::string& phase,
                                  int64_t created, const std::string& cpu = "1") {
  schema::QueueUnit u = unit(name, quota_label, cpu, 0, created);
  u.status.phase = phase;
  if (phase == "Reserved" || phase == "Dequeued" || phase == "Running" || phase == "SchedReady") {
    u.status.admissions = {
        {std::string(actors::kDefaultPodSet), 1, std::nullopt, phase == "Running" ? 1 : 0, std::nullopt}};
  }
  return u;
}

inline schema::QueueUnit admitted(const std::string& name, const std::string& quota_label, int32_t priority,
                                  int64_t replicas, int64_t running, int64_t created) {
  schema::QueueUnit u = unit(name, quota_label, "1", priority, created);
  u.spec.resource.clear();
  u.spec.request.clear();
  schema::PodSet ps;
  ps.name = "worker";
  ps.count = replicas;
  ps.containers.push_back({"main", {{"cpu", "1"}}, {}});
  u.spec.pod_set.push_back(ps);
  u.status.phase = running == replicas ? "Running" : "Dequeued";
  u.status.admissions = {{"worker", replicas, std::nullopt, running, std::nullopt}};
  u.status.last_allocate_time = 0;
  return u;
}

// Part 1: quotas (one name twice), queues of each policy, units observed in every phase.
inline void build_part1(RecordedRun& r) {
  r.input(quota("main", "", {{"cpu", "8"}, {"memory", "16Gi"}}, 10));
  auto twin = quota("main", "", {{"cpu", "1"}}, 20);
  twin.metadata.namespace_ = "other";
  twin.metadata.uid = "uid-quota-main-other";
  r.input(twin);  // name collision: the older one in "default" counts
  r.input(quota("child", "main", {{"cpu", "4"}}, 30));
  r.input(quota("blocky", "", {{"cpu", "2"}}, 40));
  r.input(quota("pre", "", {{"cpu", "4"}}, 50));
  r.input(quota("orphan", "", {{"cpu", "3"}}, 60));  // no queue
  r.input(queue("main", "Priority", {{"koord-queue/queue-items-refresh-interval", "soon"}}));
  r.input(queue("child", "Priority", {{"koord-queue/max-depth", "5"}}));
  r.input(queue("blocky", "Block"));
  r.input(queue("pre", "Priority", kPreemptive));
  r.input(queue("weird", "Fifo"));
  r.input(quota("checked", "", {{"cpu", "2"}}, 70));
  auto checked = queue("checked");
  checked.spec.admission_checks.push_back(schema::QueueAdmissionCheck{"provisioning", {}});
  r.input(checked);
  r.time += 20 * kMs;
  int64_t created = 100;
  for (const char* phase : {"Reserved", "Dequeued", "Running", "Succeed", "Failed", "TimeoutBackoff", "SchedReady",
                            "SchedSucceed", "SchedFailed", "Bogus"}) {
    const bool reserved = std::string(phase) == "Reserved";
    auto u = observed(std::string("p-") + phase, reserved ? "checked" : "child", phase, ++created);
    if (reserved) u.status.admission_checks.push_back({"provisioning", "Pending", 0, "", ""});
    r.input(u);
  }
}

// Part 2: pending and landed writes, backoff, a block, a preemption round, unmapped units.
inline void build_part2(RecordedRun& r) {
  r.time += 20 * kMs;
  auto fits = r.input(unit("fits", "main", "1", 3, 200));  // admitted: a pending status
  const uint64_t fits_round = r.last_round_seq;
  const auto admits = of_kind(fits, actors::DecisionKind::kAdmit);
  if (admits.size() != 1) throw std::runtime_error("fits was not admitted");
  const actors::Decision admit = *admits[0];
  r.time += 20 * kMs;
  auto landed = unit("landed", "main", "1", 2, 201);
  auto landed_round = r.input(landed);
  const auto landed_admits = of_kind(landed_round, actors::DecisionKind::kAdmit);
  if (landed_admits.size() != 1) throw std::runtime_error("landed was not admitted");
  r.time += 20 * kMs;
  r.outcome(*landed_admits[0], r.last_round_seq, actors::OutcomeResult::kSuccess, "900");  // landed, not yet seen
  landed.spec.active = false;  // a newer decision over the landed write: deactivation
  r.time += 20 * kMs;
  r.input(landed);
  r.time += 20 * kMs;
  r.input(unit("too-big", "main", "50", 1, 202));  // fails: backoff
  r.time += 20 * kMs;
  r.input(unit("block-big", "blocky", "5", 0, 203));  // Block policy: blocks the quota
  r.input(unit("block-next", "blocky", "1", 0, 204));
  r.time += 20 * kMs;
  r.input(admitted("low1", "pre", 1, 2, 0, 205));
  r.input(admitted("low2", "pre", 2, 2, 0, 206));
  r.time += 20 * kMs;
  r.input(unit("urgent", "pre", "2", 10, 207));  // preempts low1
  r.input(unit("no-label", "", "1", 0, 208));
  r.input(unit("ghost-wait", "ghost", "1", 0, 209));  // labelled with a quota without queue
  r.input(admitted("ghost-holds", "ghost", 0, 1, 1, 210));
  r.input(admitted("orphan-holds", "orphan", 0, 1, 1, 211));
  r.input(unit("other-ns", "child", "1", 0, 212, "team-b"));
  r.time += 20 * kMs;
  r.outcome(admit, fits_round, actors::OutcomeResult::kSuccess, "901");
  r.tick(r.time + 5 * kSec);
}

// Part 3: time passes (queue not found, backoff expiry, republish), a leader change, deletions.
inline void build_part3(RecordedRun& r) {
  r.tick(r.time + 11 * kSec);
  r.role_acquired();
  r.time += 20 * kMs;
  r.input(unit("no-label", "", "1", 0, 208), true);
  r.input(quota("child", "main", {{"cpu", "6"}}, 30));
  r.tick(r.time + 200 * kSec);
}

inline std::string snapshot_of(const actors::Scheduler& s, uint64_t seq = 42, int64_t time = 7) {
  return actors::encode_state_snapshot(s, seq, time, kRecordedRunUuid);
}

}  // namespace koordq::testing
