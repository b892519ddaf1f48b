// The decision actors reproduce the recorded rounds (design.md §3): a generated scenario's journal
// is fed to engines with 1 and with 4 worker threads; before each `round` record both decide on
// the state at its basis, and both must give exactly the recorded decisions.
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "actors/runtime/decision_engine.hpp"
#include "actors/wire/decision_wire.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/scenario_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

// Copies a record (records are move-only).
journal::StoredRecord copy_of(const journal::StoredRecord& r) {
  auto copy = journal::StoredRecord::parse(r.stored_value());
  if (!copy.ok()) throw std::runtime_error(copy.message());
  return std::move(copy).value();
}

// The first round an engine decides differently from the journal, if any.
std::optional<std::string> first_divergence(const testgen::Scenario& scenario,
                                            const std::vector<journal::StoredRecord>& records, size_t threads) {
  actors::runtime::DecisionEngine engine({threads, {}}, actors::Scheduler(scenario.config));
  std::vector<journal::StoredRecord> batch;
  for (const auto& r : records) {
    if (r.kind() == journal::RecordKind::kRound) {
      if (auto s = engine.apply(std::move(batch)); !s.ok()) return "apply: " + s.message();
      batch.clear();
      const auto decided = engine.decide();
      if (!decided.ok()) return "decide: " + decided.message();
      const auto recorded = actors::read_round(r.reader().getBody().getRound());
      if (!recorded.ok()) return "round record: " + recorded.message();
      if (*decided != *recorded) {
        return "round " + std::to_string(r.seq()) + " with " + std::to_string(threads) + " threads: decided " +
               std::to_string(decided->size()) + " decisions, the journal has " + std::to_string(recorded->size());
      }
    }
    batch.push_back(copy_of(r));
  }
  if (auto s = engine.apply(std::move(batch)); !s.ok()) return "apply: " + s.message();
  if (engine.applied_seq() != records.back().seq()) return "the engine stopped before the last record";
  return std::nullopt;
}

RC_GTEST_PROP(ActorRounds, one_and_four_actor_threads_decide_exactly_the_recorded_rounds, ()) {
  const auto scenario = *testgen::scenario();
  const auto records = ScenarioJournal::record(scenario);
  RC_PRE(!records.empty());
  for (size_t threads : {size_t{1}, size_t{4}}) {
    const auto divergence = first_divergence(scenario, records, threads);
    if (divergence) RC_FAIL(*divergence);
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
