// Where a durable round's writes go (design.md §3; behaviour.md §7.6): on a cluster the API
// writers and the event recorder (api_round_writer.hpp), under --simulate the simulated API server
// (simulated_cluster_inbox.hpp), in tests a recorder. Their answers come back as inputs.
#pragma once

#include <cstdint>
#include <vector>

#include "actors/core/scheduler.hpp"

namespace koordq::controller {

class RoundWriter {
 public:
  virtual ~RoundWriter() = default;
  // The round journaled at `round_seq` is applied: carry out its writes (every round, also an
  // empty one).
  virtual void carry_out(uint64_t round_seq, const std::vector<actors::Decision>& decisions) = 0;
  // No further write may leave (leading ended); called once, before the writer goes.
  virtual void stop() {}
};

}  // namespace koordq::controller
