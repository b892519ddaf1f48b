// The cluster simulator as the serve loop's inbox source (behaviour.md §21): its events up to the
// next moment that matters (an event, a deadline's tick), and the answers and watch events of the
// previous round's writes, form one input batch. With a virtual clock time jumps from moment to
// moment and every record is stamped with it (one scenario and seed: a byte-identical journal);
// on the wall clock the source sleeps until then. It is also the round writer: a round's writes
// go to the simulated API server.
#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "actors/runtime/decision_engine.hpp"
#include "actors/runtime/tick_policy.hpp"
#include "controller/inbox_source.hpp"
#include "controller/round_writer.hpp"
#include "journal/capnp_record_body.hpp"
#include "kube/simulator/simulated_cluster.hpp"
#include "schema/raw_object.hpp"

namespace koordq::controller {

struct SimulationClock {
  bool virtual_time = true;
  int64_t start = 0;
  int64_t end = INT64_MAX;  // the run's last moment (--simulate-duration)
  int64_t tick_min_interval_ns = 10'000'000;
  std::function<int64_t()> wall_now;
  std::function<bool()> stop_requested;  // cuts a wall-clock sleep short
};

class SimulatedClusterInbox : public InboxSource {
 public:
  // `published_now` follows the simulated "now" (the clock asOf may not pass).
  SimulatedClusterInbox(SimulationClock clock, kube::sim::SimulatedCluster& cluster,
                        actors::runtime::DecisionEngine& engine, schema::RawObjectMode raw_mode,
                        std::atomic<int64_t>& published_now);

  // Every start journals one relist epoch per resource (design.md §7): the simulated LIST against
  // the journaled state, between `relist` begin and end records, as the first input batch. The
  // cluster's watch then continues from the LIST's resourceVersion.
  void relist(const std::vector<schema::WatchedObject>& journaled);

  std::vector<LoopInput> take(std::chrono::nanoseconds wait) override;
  int64_t now() const override { return now_; }
  std::optional<int64_t> round_time() const override;
  bool finished() const override { return finished_; }

  // The round's writes to the simulated API server; its answers and events form the next batch.
  void carry_out(uint64_t round_seq, const std::vector<actors::Decision>& decisions);
  // A RoundWriter over carry_out(), for the loop.
  std::unique_ptr<RoundWriter> writer();

 private:
  struct Input {
    int64_t time;
    std::unique_ptr<journal::CapnpRecordBody> body;
  };

  void queue_watch(int64_t time, const schema::WatchEvent& event);
  int64_t next_time() const;
  void sleep_until(int64_t t) const;

  SimulationClock clock_;
  kube::sim::SimulatedCluster& cluster_;
  actors::runtime::DecisionEngine& engine_;
  schema::RawObjectMode raw_mode_;
  std::atomic<int64_t>& published_now_;
  actors::runtime::TickPolicy tick_policy_;
  std::deque<Input> pending_;
  int64_t now_;
  int64_t last_append_;  // time of the last round, i.e. of the last appended record
  std::optional<int64_t> last_tick_;
  bool finished_ = false;
};

}  // namespace koordq::controller
