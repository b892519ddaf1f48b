// What the serve loop tells the serving surfaces (cmd/ implements it over cmd/serve_surfaces.hpp):
// leading, the initial sync, journal write failures, relists; and each step it completes, which
// is where a test stops it to play a crash.
#pragma once

#include <optional>
#include <string>

#include "actors/runtime/decision_engine.hpp"
#include "base/result.hpp"
#include "journal/journal.hpp"

namespace koordq::controller {

// The steps of one loop cycle, in order; a crash can fall between any two.
enum class LoopStep {
  kInputsTaken,    // the source's inputs are in the batch (not yet durable)
  kBatchAppended,  // the batch is durable
  kBatchApplied,   // and folded into the live state
  kRoundAppended,  // the leader's round on it is durable
  kRoundApplied,   // and folded
  kWritesIssued,   // the round's writes are handed to the writer
};

class LoopObserver {
 public:
  virtual ~LoopObserver() = default;
  virtual void relisted(const char* /*resource*/) {}
  // This replica leads from now on (its `role` record is applied).
  virtual Status became_leader() { return ok_status(); }
  // Leading ended on a journal write failure (§19).
  virtual void stopped_leading() {}
  // The initial LIST of every watched resource is applied (and, under --simulate, decided on).
  virtual Status initial_sync_done() { return ok_status(); }
  // §19: appends fail with `error`; nullopt: they succeed again.
  virtual void journal_failure(std::optional<std::string> /*error*/) {}
  virtual void step_done(LoopStep /*step*/) {}
};

// The whole of a serve (cluster_serve.hpp, simulation_serve.hpp) tells the surfaces a little more.
class ServeObserver : public LoopObserver {
 public:
  // The journal was corrupt: it is quarantined and a new one started (§21).
  virtual void quarantined() {}
  // The journal is open and the router runs on its state: the surfaces may read both, until
  // stop_serving(), which comes before either goes away on every path out.
  virtual Status serving(journal::Journal& /*journal*/, actors::runtime::DecisionEngine& /*engine*/) {
    return ok_status();
  }
  virtual void stop_serving() {}
};

}  // namespace koordq::controller
