// Invariants of the decision logic over generated scenarios (scenario_generators.hpp) played
// against a simulated cluster (cluster_sim.hpp) the way the router does it: every input is a
// journal record, and after each batch one round is decided, journaled and applied. One
// invariant per property, checked after every record.
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "journal/watch_record.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/cluster_sim.hpp"
#include "tests/support/round_index_invariants.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/scenario_journal.hpp"
#include "tests/support/scheduler_invariants.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::describe_differences;
using replay::state_differences;

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kStart = 1'776'000'000 * ClusterSim::kSecond;

enum class Invariant {
  kAccounting,
  kOverAdmission,
  kOrder,
  kQueueMembership,
  kDerivedIndexes,
  kRoundIndex,
  kReplay,
  kRedecide
};

std::string describe(const ClusterInput& in) {
  if (const auto* w = std::get_if<WatchInput>(&in)) {
    const auto& meta = schema::meta_of(w->object);
    std::string out = std::string("watch ") + schema::watch_event_type_name(w->type) + " " +
                      schema::kind_name(schema::kind_of(w->object)) + " " + meta.namespace_ + "/" + meta.name +
                      " rv=" + meta.resource_version;
    if (const auto* u = std::get_if<schema::QueueUnit>(&w->object)) {
      out += " phase=" + u->status.phase + " prio=" + std::to_string(u->spec.priority.value_or(0)) +
             (u->spec.active.value_or(true) ? "" : " inactive") + " admissions=[";
      for (const auto& a : u->status.admissions) {
        out += a.name + ":" + std::to_string(a.replicas) + "/run" + std::to_string(a.running) +
               (a.reclaim_state ? "/reclaim" + std::to_string(a.reclaim_state->replicas) : "") + " ";
      }
      out += "]";
    } else if (const auto* q = std::get_if<schema::ElasticQuota>(&w->object)) {
      for (const auto& [r, v] : q->spec.max) out += " max." + r + "=" + v;
    }
    return out;
  }
  if (const auto* o = std::get_if<actors::Outcome>(&in)) {
    const char* kinds[] = {"status", "spec.queue", "queue", "event"};
    const std::string target =
        std::holds_alternative<actors::UnitRef>(o->target)
            ? std::get<actors::UnitRef>(o->target).namespace_ + "/" + std::get<actors::UnitRef>(o->target).name
            : std::get<actors::QueueRef>(o->target).name;
    return "outcome " + std::to_string(o->http_code) + " for " + std::to_string(o->decision_seq) + "." +
           std::to_string(o->decision_index) + " " + kinds[static_cast<int>(o->write_kind)] + " " + target +
           (o->resource_version.empty() ? "" : " rv=" + o->resource_version);
  }
  if (std::holds_alternative<TickInput>(in)) return "tick";
  return "role acquired";
}

std::string describe(const actors::Decision& d) {
  std::string out = actors::decision_kind_name(d.kind);
  if (const auto* u = std::get_if<actors::UnitRef>(&d.target)) {
    out += " " + u->namespace_ + "/" + u->name;
  } else {
    out += " " + std::get<actors::QueueRef>(d.target).name;
  }
  if (d.status_patch) out += " (rv " + d.status_patch->resource_version + ")";
  if (!d.reason.empty()) out += ": " + d.reason;
  return out;
}

// One scenario played live, with the journal it produces folded beside it.
class ScenarioRun {
 public:
  ScenarioRun(const testgen::Scenario& scenario, Invariant invariant)
      : scenario_(scenario),
        invariant_(invariant),
        replay_(invariant == Invariant::kReplay || invariant == Invariant::kRedecide),
        live_(scenario.config),
        replayed_(scenario.config),
        cluster_(scenario, kStart) {}

  // The first violation, with the records that led to it.
  std::optional<std::string> run() {
    batch(cluster_.setup());
    for (size_t i = 0; i < scenario_.steps.size() && !failure_; ++i) {
      const auto& step = scenario_.steps[i];
      now_ += step.dt_millis * kMs;
      log("-- step " + std::to_string(i) + ": " + testgen::step_kind_name(step.kind));
      batch(cluster_.batch(step, now_));
    }
    for (int i = 0; i < 3 && !failure_; ++i) {
      now_ += ClusterSim::kSecond;
      log("-- drain");
      batch(cluster_.drain());
    }
    if (!failure_) return std::nullopt;
    std::string out = *failure_ + "\nlast records:\n";
    for (const auto& line : log_) out += "  " + line + "\n";
    return out;
  }

 private:
  // A batch of inputs (a tick when the cluster had nothing to say), then its round.
  void batch(std::vector<ClusterInput> inputs) {
    if (inputs.empty()) inputs.push_back(TickInput{});
    for (const auto& in : inputs) {
      input(in);
      if (failure_) return;
    }
    round();
  }

  std::unique_ptr<journal::CapnpRecordBody> encode(const ClusterInput& in) {
    return input_body(in, lease_transitions_);
  }

  void apply_live(const ClusterInput& in) {
    if (const auto* w = std::get_if<WatchInput>(&in)) {
      note_lowered_max(*w);
      live_.apply_object(w->object, w->type == schema::WatchEventType::kDeleted);
    } else if (const auto* o = std::get_if<actors::Outcome>(&in)) {
      live_.apply_outcome(*o);
    } else if (std::holds_alternative<RoleAcquiredInput>(in)) {
      live_.apply_role_acquired();
    }
  }

  // A quota whose max went down may hold more than its new max without anyone over-admitting,
  // until that excess drains (check()).
  void note_lowered_max(const WatchInput& w) {
    const auto* q = std::get_if<schema::ElasticQuota>(&w.object);
    if (q == nullptr) return;
    const actors::QuotaInfo* before = live_.quotas().find(q->metadata.name);
    if (before == nullptr) return;
    const auto after = schema::to_vector(q->spec.max);
    for (const auto& [r, v] : before->max) {
      const auto it = after.find(r);
      if (it != after.end() && it->second < v) lowered_.insert(q->metadata.name);
    }
  }

  void input(const ClusterInput& in) {
    const journal::StoredRecord stored = chain_.append(*encode(in), now_);
    log(std::to_string(stored.seq()) + " " + describe(in));
    live_.advance_to(now_);
    apply_live(in);
    fold(stored);
    check();
  }

  void round() {
    if (failure_) return;
    const uint64_t basis = chain_.last_seq();
    const std::vector<actors::Decision> decisions = live_.decide();
    const journal::StoredRecord stored = chain_.append(*actors::make_round_body(basis, decisions), now_);
    log(std::to_string(stored.seq()) + " round, basis " + std::to_string(basis) + ", " +
        std::to_string(decisions.size()) + " decisions");
    for (const auto& d : decisions) log("     " + describe(d));
    if (invariant_ == Invariant::kRedecide) redecide(stored, decisions);
    live_.advance_to(now_);
    live_.apply_round(stored.seq(), decisions);
    fold(stored);
    cluster_.on_round(stored.seq(), decisions);
    check();
  }

  // e) the round record reads back as the decisions, and the state at its basis — a copy of the
  // live one and the one folded from the journal — decides exactly them again.
  void redecide(const journal::StoredRecord& stored, const std::vector<actors::Decision>& decisions) {
    const actors::Scheduler at_basis = live_;
    const auto recorded = actors::read_round(stored.reader().getBody().getRound());
    if (!recorded.ok() || *recorded != decisions) return fail("round record does not read back as its decisions");
    if (at_basis.decide() != decisions) return fail("a copy of the state at the basis decides differently");
    if (replayed_.decide() != *recorded) return fail("the state folded from the journal decides differently");
  }

  void fold(const journal::StoredRecord& stored) {
    if (!replay_ || failure_) return;
    const auto applied = actors::apply_record(replayed_, stored);
    if (!applied.ok()) return fail("apply_record: " + applied.message());
    if (invariant_ != Invariant::kReplay) return;
    const auto differences = state_differences(replayed_, live_);
    if (!differences.empty()) fail("replayed state differs from live: " + describe_differences(differences));
  }

  void check() {
    if (failure_) return;
    std::vector<std::string> violations;
    switch (invariant_) {
      case Invariant::kAccounting:
        violations = accounting_violations(live_);
        break;
      case Invariant::kOverAdmission:
        // A lowered quota is exempt only until its excess has drained: from then on it must stay
        // within its new limit like every other quota.
        std::erase_if(lowered_, [&](const std::string& name) { return quota_over_limit(live_, name).empty(); });
        violations = over_admission_violations(live_, lowered_);
        break;
      case Invariant::kOrder:
        violations = order_violations(live_);
        break;
      case Invariant::kQueueMembership:
        violations = queue_membership_violations(live_);
        break;
      case Invariant::kDerivedIndexes:
        violations = derived_index_violations(live_);
        break;
      case Invariant::kRoundIndex:
        violations = round_index_violations(live_);
        break;
      case Invariant::kReplay:
      case Invariant::kRedecide:
        break;
    }
    if (!violations.empty()) fail(describe_differences(violations));
  }

  void fail(const std::string& what) {
    if (!failure_) failure_ = "after record " + std::to_string(chain_.last_seq()) + ": " + what;
  }

  void log(std::string line) {
    log_.push_back(std::move(line));
    if (log_.size() > 80) log_.pop_front();
  }

  const testgen::Scenario& scenario_;
  const Invariant invariant_;
  const bool replay_;
  actors::Scheduler live_;
  actors::Scheduler replayed_;
  ClusterSim cluster_;
  RecordChain chain_;
  int64_t now_ = kStart;
  int32_t lease_transitions_ = 0;
  std::set<std::string> lowered_;
  std::optional<std::string> failure_;
  std::deque<std::string> log_;
};

void holds(Invariant invariant) {
  const auto scenario = *testgen::scenario();
  ScenarioRun run(scenario, invariant);
  const auto failure = run.run();
  if (failure) RC_FAIL(*failure);
}

RC_GTEST_PROP(DecisionProperty, accounting_is_never_negative_and_is_the_sum_of_the_charges_of_units_holding_quota, ()) {
  holds(Invariant::kAccounting);
}

RC_GTEST_PROP(DecisionProperty, no_quota_holds_more_than_its_max_times_the_oversell_rate, ()) {
  holds(Invariant::kOverAdmission);
}

RC_GTEST_PROP(DecisionProperty, the_queue_order_is_a_strict_total_order_over_the_units, ()) {
  holds(Invariant::kOrder);
}

RC_GTEST_PROP(DecisionProperty, each_queue_waits_for_exactly_its_waiting_units, ()) {
  holds(Invariant::kQueueMembership);
}

RC_GTEST_PROP(DecisionProperty, the_housekeeping_sets_and_queue_timers_follow_the_state_after_every_record, ()) {
  holds(Invariant::kDerivedIndexes);
}

RC_GTEST_PROP(DecisionProperty, a_round_over_the_awake_queues_decides_what_a_round_over_every_queue_decides, ()) {
  holds(Invariant::kRoundIndex);
}

RC_GTEST_PROP(DecisionProperty, folding_the_journal_gives_the_live_state_after_every_record, ()) {
  holds(Invariant::kReplay);
}

RC_GTEST_PROP(DecisionProperty, re_deciding_at_a_rounds_basis_reproduces_the_recorded_decisions, ()) {
  holds(Invariant::kRedecide);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
