// A durable round's writes on a real cluster (behaviour.md §7.6): unit status and spec.queue
// patches and Queue writes to the coalescing API writer, Events to the recorder, each with what
// the 409 check and the failure-write limit need from the state the round was applied to.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "actors/runtime/decision_engine.hpp"
#include "controller/round_writer.hpp"
#include "kube/events/event_recorder.hpp"
#include "kube/writer/api_writer.hpp"

namespace koordq::controller {

class ApiRoundWriter : public RoundWriter {
 public:
  ApiRoundWriter(actors::runtime::DecisionEngine& engine, std::unique_ptr<kube::ApiWriter> writer,
                 std::unique_ptr<kube::EventRecorder> recorder)
      : engine_(engine), writer_(std::move(writer)), recorder_(std::move(recorder)) {}

  void carry_out(uint64_t round_seq, const std::vector<actors::Decision>& decisions) override;
  void stop() override;

 private:
  std::vector<kube::UnitWrite> unit_writes(uint64_t round_seq, const std::vector<actors::Decision>& decisions);
  std::vector<kube::QueueWriteJob> queue_writes(uint64_t round_seq, const std::vector<actors::Decision>& decisions);
  void record_events(uint64_t round_seq, const std::vector<actors::Decision>& decisions);

  actors::runtime::DecisionEngine& engine_;
  std::unique_ptr<kube::ApiWriter> writer_;
  std::unique_ptr<kube::EventRecorder> recorder_;
};

}  // namespace koordq::controller
