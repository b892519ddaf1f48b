// The default scenario driven by the decision logic, as `serve --simulate --simulate-clock=virtual`
// drives it: cluster events → apply → decide → round applied → writes answered → …
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "actors/core/scheduler.hpp"
#include "kube/simulator/simulated_cluster.hpp"
#include "tests/support/simulator_fixture.hpp"

namespace koordq::kube::sim {
namespace KOORDQ_TEST_LOCAL {

using namespace fixture;

class ClosedLoop {
 public:
  explicit ClosedLoop(uint64_t seed) : sim_(*load_scenario("default"), seed, kStart) {}

  void run_for(int64_t duration) {
    const int64_t end = kStart + duration;
    int64_t now = kStart;
    while (true) {
      int64_t next = *sim_.next_event_time();
      if (const auto deadline = s_.next_deadline()) next = std::min(next, *deadline);
      if (next > end) break;
      now = std::max(now, next);
      auto events = sim_.advance_to(now);
      // A batch, its round, and the batches the round's writes cause.
      for (int rounds = 0; rounds < 4; ++rounds) {
        apply(events);
        events = round(now);
        if (events.empty()) break;
      }
    }
  }

  const Stats& stats() const { return sim_.stats(); }
  const std::map<DecisionKind, int>& decisions() const { return decisions_; }
  const std::string& trace() const { return trace_; }

 private:
  void apply(const std::vector<TimedEvent>& events) {
    for (const auto& e : events) {
      ++seq_;
      s_.advance_to(e.time);
      s_.apply_object(*e.event.object, e.event.type == WatchEventType::kDeleted);
      trace_ += e.event.raw_json;
    }
  }

  std::vector<TimedEvent> round(int64_t now) {
    ++seq_;
    s_.advance_to(now);
    const auto ds = s_.decide();
    ++seq_;
    s_.apply_round(seq_, ds);
    const uint64_t round_seq = seq_;
    std::vector<TimedEvent> caused;
    for (uint32_t i = 0; i < ds.size(); ++i) {
      ++decisions_[ds[i].kind];
      auto w = sim_.apply_decision(round_seq, i, ds[i], now);
      for (const auto& o : w.outcomes) {
        ++seq_;
        s_.apply_outcome(o);
      }
      caused.insert(caused.end(), w.events.begin(), w.events.end());
    }
    return caused;
  }

  SimulatedCluster sim_;
  actors::Scheduler s_;
  uint64_t seq_ = 0;
  std::map<DecisionKind, int> decisions_;
  std::string trace_;
};

TEST(SimulatorDefaultScenario, admits_a_few_units_a_second_with_backoff_and_preemption_visible) {
  ClosedLoop loop(1);
  constexpr int64_t kMinutes = 2;
  loop.run_for(kMinutes * 60 * kSec);
  const Stats& st = loop.stats();
  const auto& d = loop.decisions();
  auto count = [&](DecisionKind k) { return d.count(k) ? d.at(k) : 0; };
  const double per_second = static_cast<double>(st.admissions) / (kMinutes * 60);
  EXPECT_GT(per_second, 1.0);
  EXPECT_LT(per_second, 10.0);
  EXPECT_GT(count(DecisionKind::kFail), 100);  // over quota: backoff
  EXPECT_GT(count(DecisionKind::kPreempt), 0);
  EXPECT_GT(count(DecisionKind::kReserve), 0);
  EXPECT_GT(count(DecisionKind::kAdmissionChecksReady), 0);
  EXPECT_GT(st.reclaims, 0u);
  EXPECT_GT(st.succeeded, 100u);
  EXPECT_GT(st.failed, 0u);
  EXPECT_GT(st.deleted, 100u);
  EXPECT_GT(st.conflicts_injected, 0u);
  std::string summary = "arrivals=" + std::to_string(st.arrivals) + " admissions=" + std::to_string(st.admissions) +
                        " reclaims=" + std::to_string(st.reclaims) + " decisions:";
  for (const auto& [k, n] : d) summary += " " + std::to_string(static_cast<int>(k)) + "=" + std::to_string(n);
  RecordProperty("summary", summary);
}

TEST(SimulatorDefaultScenario, one_seed_gives_one_run) {
  ClosedLoop a(5), b(5);
  a.run_for(60 * kSec);
  b.run_for(60 * kSec);
  EXPECT_EQ(a.trace(), b.trace());
  EXPECT_GT(a.trace().size(), 10'000u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube::sim
