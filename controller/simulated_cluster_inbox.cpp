#include "controller/simulated_cluster_inbox.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <utility>

#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "base/go_duration.hpp"
#include "journal/watch_record.hpp"
#include "kube/ingest/relist_diff.hpp"

namespace koordq::controller {
namespace {

class SimulatorWriter : public RoundWriter {
 public:
  explicit SimulatorWriter(SimulatedClusterInbox& inbox) : inbox_(inbox) {}
  void carry_out(uint64_t round_seq, const std::vector<actors::Decision>& decisions) override {
    inbox_.carry_out(round_seq, decisions);
  }

 private:
  SimulatedClusterInbox& inbox_;
};

}  // namespace

SimulatedClusterInbox::SimulatedClusterInbox(SimulationClock clock, kube::sim::SimulatedCluster& cluster,
                                             actors::runtime::DecisionEngine& engine, schema::RawObjectMode raw_mode,
                                             std::atomic<int64_t>& published_now)
    : clock_(std::move(clock)),
      cluster_(cluster),
      engine_(engine),
      raw_mode_(raw_mode),
      published_now_(published_now),
      tick_policy_{clock_.tick_min_interval_ns},
      now_(clock_.start),
      last_append_(clock_.start) {}

void SimulatedClusterInbox::relist(const std::vector<schema::WatchedObject>& journaled) {
  for (auto kind : {schema::ObjectKind::kElasticQuota, schema::ObjectKind::kQueue, schema::ObjectKind::kQueueUnit}) {
    const std::string rv = cluster_.resource_version();
    pending_.push_back({now_, actors::make_relist_body(actors::RelistPhase::kBegin, kind, rv)});
    std::vector<schema::WatchedObject> known;
    for (const auto& o : journaled) {
      if (schema::kind_of(o) == kind) known.push_back(o);
    }
    for (const auto& e : kube::relist_diff(known, cluster_.list(kind))) {
      pending_.push_back({now_, journal::make_watch_body(e.event, raw_mode_, e.synthesized)});
    }
    pending_.push_back({now_, actors::make_relist_body(actors::RelistPhase::kEnd, kind, rv)});
  }
}

std::vector<LoopInput> SimulatedClusterInbox::take(std::chrono::nanoseconds) {
  const int64_t next = next_time();
  if (next > clock_.end) {
    if (!clock_.virtual_time) sleep_until(clock_.end);  // on the wall clock the run lasts its whole duration
    finished_ = true;
    return {};
  }
  if (!clock_.virtual_time) sleep_until(next);
  now_ = std::max(now_, clock_.virtual_time ? next : clock_.wall_now());
  if (now_ > clock_.end) {
    finished_ = true;
    return {};
  }
  published_now_.store(now_);
  for (auto& e : cluster_.advance_to(now_)) queue_watch(e.time, e.event);
  if (pending_.empty()) {
    if (!tick_policy_.tick_due(now_, engine_.next_deadline(), last_append_, last_tick_)) return {};
    pending_.push_back({now_, actors::make_tick_body()});
    last_tick_ = now_;
  }
  std::vector<LoopInput> out;
  out.reserve(pending_.size());
  for (auto& in : pending_) {
    if (clock_.virtual_time) in.body->set_explicit_time(in.time);
    LoopInput input;
    input.kind = LoopInput::Kind::kRecord;
    input.body = std::move(in.body);
    out.push_back(std::move(input));
  }
  pending_.clear();
  return out;
}

std::optional<int64_t> SimulatedClusterInbox::round_time() const {
  if (!clock_.virtual_time) return std::nullopt;
  return now_;
}

void SimulatedClusterInbox::carry_out(uint64_t round_seq, const std::vector<actors::Decision>& decisions) {
  last_append_ = now_;
  for (uint32_t i = 0; i < decisions.size(); ++i) {
    auto result = cluster_.apply_decision(round_seq, i, decisions[i], now_);
    for (const auto& o : result.outcomes) pending_.push_back({now_, actors::make_outcome_body(o)});
    for (auto& e : result.events) queue_watch(e.time, e.event);
  }
}

std::unique_ptr<RoundWriter> SimulatedClusterInbox::writer() {
  return std::make_unique<SimulatorWriter>(*this);
}

void SimulatedClusterInbox::queue_watch(int64_t time, const schema::WatchEvent& event) {
  pending_.push_back({time, journal::make_watch_body(event, raw_mode_)});
}

int64_t SimulatedClusterInbox::next_time() const {
  if (!pending_.empty()) return now_;
  std::optional<int64_t> t = cluster_.next_event_time();
  if (auto d = tick_policy_.next_tick(engine_.next_deadline(), last_append_, last_tick_); d && (!t || *d < *t)) {
    t = d;
  }
  if (!t) return clock_.virtual_time ? INT64_MAX : now_ + base::kSecond;
  return std::max(*t, now_ + (clock_.virtual_time ? 0 : clock_.tick_min_interval_ns));
}

void SimulatedClusterInbox::sleep_until(int64_t t) const {
  while (!clock_.stop_requested()) {
    const int64_t left = t - clock_.wall_now();
    if (left <= 0) return;
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<int64_t>(left, 100 * base::kMillisecond)));
  }
}

}  // namespace koordq::controller
