// A crash of `serve` between any two steps of its loop (controller/serve_loop.hpp): the process
// stops after its k-th step, for every k of the script's uninterrupted run; a new process starts
// from the same journal directory while the cluster goes on, and finishes the script. Nothing the
// journal acknowledged is lost, every unit write left without a journaled answer is written
// again, and the decided state is the uninterrupted run's.
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "actors/wire/outcome_wire.hpp"
#include "tests/support/serve_script.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

struct Crash : std::runtime_error {
  Crash() : std::runtime_error("crash") {}
};

// Counts the loop's steps; throws out of the k-th (0: never), as a process dying there.
class CrashAt : public controller::LoopObserver {
 public:
  explicit CrashAt(size_t k) : k_(k) {}
  void step_done(controller::LoopStep) override {
    if (++steps == k_) throw Crash();
  }
  size_t steps = 0;

 private:
  size_t k_;
};

std::vector<std::string> hashes(journal::Journal& j, uint64_t through) {
  std::vector<std::string> out;
  for (uint64_t seq = 1; seq <= through; ++seq) {
    auto record = j.reader().get(seq);
    out.push_back(record.ok() && record->has_value() ? journal::to_hex((*record)->hash()) : "missing");
  }
  return out;
}

using WriteAddress = std::tuple<uint64_t, uint32_t, actors::WriteKind>;

std::set<WriteAddress> answered(journal::Journal& j) {
  std::set<WriteAddress> out;
  for (uint64_t seq = 1; seq <= j.reader().last_seq(); ++seq) {
    auto record = j.reader().get(seq);
    if (!record.ok() || !record->has_value()) continue;
    const auto body = (*record)->reader().getBody();
    if (!body.isOutcome()) continue;
    auto o = actors::read_outcome(body.getOutcome());
    if (o.ok() && o->result != actors::OutcomeResult::kUnknown) {
      out.insert({o->decision_seq, o->decision_index, o->write_kind});
    }
  }
  return out;
}

TEST(ServeLoopCrash, a_restart_after_a_crash_between_any_two_steps_converges_on_the_uninterrupted_state) {
  std::vector<std::string> uninterrupted;
  size_t steps = 0;
  {
    TempDir dir;
    ScriptedApiServer api;
    int64_t clock = kScriptStart;
    CrashAt never(0);
    ScriptedServe serve(dir / "journal", admission_script(), api, clock, never);
    ASSERT_EQ(serve.loop().run(), controller::ServeEnd::kStopped);
    uninterrupted = decided_state(serve.engine());
    steps = never.steps;
  }
  ASSERT_GT(steps, 20u);

  for (size_t k = 1; k <= steps; ++k) {
    SCOPED_TRACE("crash after step " + std::to_string(k));
    TempDir dir;
    ScriptedApiServer api;
    int64_t clock = kScriptStart;
    std::deque<Beat> rest;
    std::vector<std::string> acknowledged;
    std::vector<IssuedWrite> unanswered;
    {
      CrashAt crash(k);
      ScriptedServe first(dir / "journal", admission_script(), api, clock, crash);
      EXPECT_THROW(first.loop().run(), Crash);
      acknowledged = hashes(first.journal(), first.journal().writer().durable_head().seq);
      const auto answers = answered(first.journal());
      for (const auto& w : first.issued) {
        if (w.kind != actors::WriteKind::kQueueWrite && !answers.count({w.round_seq, w.index, w.kind})) {
          unanswered.push_back(w);
        }
      }
      rest = first.inbox().remaining_beats();
    }
    CrashAt never(0);
    ScriptedServe second(dir / "journal", std::move(rest), api, clock, never);
    ASSERT_EQ(second.loop().run(), controller::ServeEnd::kStopped);

    EXPECT_EQ(hashes(second.journal(), acknowledged.size()), acknowledged);
    EXPECT_EQ(decided_state(second.engine()), uninterrupted);
    for (const auto& w : unanswered) {
      if (w.what.ends_with("/job1")) continue;  // deleted by the end of the script: not written again
      bool again = false;
      for (const auto& v : second.issued) again = again || v.what == w.what;
      EXPECT_TRUE(again) << w.what << " of round " << w.round_seq << " had no answer and was not written again";
    }
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
