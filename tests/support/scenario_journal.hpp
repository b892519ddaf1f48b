// A generated scenario (scenario_generators.hpp) played against the simulated cluster
// (cluster_sim.hpp) into the journal records it produces, the way the router does it: every
// input is a record folded with apply_record, and after each batch one round is decided on the
// folded state, journaled and folded.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "journal/watch_record.hpp"
#include "tests/support/cluster_sim.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {

inline std::unique_ptr<journal::CapnpRecordBody> input_body(const ClusterInput& in, int32_t& lease_transitions) {
  if (const auto* w = std::get_if<WatchInput>(&in)) {
    schema::WatchEvent event;
    event.type = w->type;
    event.object = w->object;
    return journal::make_watch_body(event, schema::RawObjectMode::kOff);
  }
  if (const auto* o = std::get_if<actors::Outcome>(&in)) return actors::make_outcome_body(*o);
  if (std::holds_alternative<TickInput>(in)) return actors::make_tick_body();
  return actors::make_role_body(actors::RoleEvent::kAcquired, "koordq-0", ++lease_transitions);
}

class ScenarioJournal {
 public:
  static constexpr int64_t kStart = 1'776'000'000 * ClusterSim::kSecond;

  // The records of the whole scenario: setup, every step, then a few drains.
  static std::vector<journal::StoredRecord> record(const testgen::Scenario& scenario) {
    ScenarioJournal run(scenario);
    run.batch(run.cluster_.setup());
    for (const auto& step : scenario.steps) {
      run.now_ += step.dt_millis * 1'000'000;
      run.batch(run.cluster_.batch(step, run.now_));
    }
    for (int i = 0; i < 3; ++i) {
      run.now_ += ClusterSim::kSecond;
      run.batch(run.cluster_.drain());
    }
    return std::move(run.records_);
  }

 private:
  explicit ScenarioJournal(const testgen::Scenario& scenario) : live_(scenario.config), cluster_(scenario, kStart) {}

  void batch(std::vector<ClusterInput> inputs) {
    if (inputs.empty()) inputs.push_back(TickInput{});
    for (const auto& in : inputs) fold(chain_.append(*input_body(in, lease_transitions_), now_));
    const uint64_t basis = chain_.last_seq();
    const std::vector<actors::Decision> decisions = live_.decide();
    fold(chain_.append(*actors::make_round_body(basis, decisions), now_));
    cluster_.on_round(chain_.last_seq(), decisions);
  }

  void fold(journal::StoredRecord record) {
    const auto applied = actors::apply_record(live_, record);
    if (!applied.ok()) throw std::runtime_error("apply_record: " + applied.message());
    records_.push_back(std::move(record));
  }

  actors::Scheduler live_;
  ClusterSim cluster_;
  RecordChain chain_;
  int64_t now_ = kStart;
  int32_t lease_transitions_ = 0;
  std::vector<journal::StoredRecord> records_;
};

}  // namespace koordq::testing
