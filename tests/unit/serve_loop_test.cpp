// The serve loop (controller/serve_loop.hpp) driven by a scripted inbox, a recording writer and a
// real journal, with no API server and no simulator: what it journals, in which order, what it
// decides and writes, and what a follower and a lost Lease do.
#include <algorithm>
#include <deque>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "tests/support/serve_script.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using controller::LoopStep;
using controller::ServeEnd;

class StepLog : public controller::LoopObserver {
 public:
  void step_done(LoopStep step) override { steps.push_back(step); }
  std::vector<LoopStep> steps;
};

std::vector<std::string> unit_writes(const std::vector<IssuedWrite>& issued) {
  std::vector<std::string> out;
  for (const auto& w : issued) {
    if (w.kind != actors::WriteKind::kQueueWrite) out.push_back(w.what);
  }
  return out;
}

class ServeLoopTest : public ::testing::Test {
 protected:
  TempDir dir_;
  ScriptedApiServer api_;
  int64_t clock_ = kScriptStart;
  StepLog log_;
};

TEST_F(ServeLoopTest, each_batch_is_journaled_then_decided_and_the_durable_rounds_writes_are_issued) {
  ScriptedServe serve(dir_ / "journal", admission_script(), api_, clock_, log_);
  ASSERT_EQ(serve.loop().run(), ServeEnd::kStopped);

  journal::Journal& j = serve.journal();
  const std::vector<std::string> kinds = record_kinds(j);
  ASSERT_GE(kinds.size(), 2u);
  EXPECT_EQ(kinds[0], "config");
  EXPECT_EQ(kinds[1], "role");
  // A round is decided on each batch once all three resources are listed, directly after it.
  size_t relist_records = 0;
  for (size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] == "relist") ++relist_records;
    if (kinds[i] != "round") continue;
    EXPECT_EQ(relist_records, 6u) << "round at seq " << i + 1 << " before the initial sync";
    EXPECT_NE(kinds[i - 1], "round") << "seq " << i + 1;
    auto record = j.reader().get(i + 1);
    ASSERT_TRUE(record.ok() && record->has_value());
    EXPECT_EQ((*record)->reader().getBody().getRound().getBasis(), i) << "the round at seq " << i + 1;
  }
  // Each admission writes the status and spec.queue, from the round record it was decided in;
  // job3, which does not fit at first, is told so in its status before it is admitted.
  EXPECT_EQ(unit_writes(serve.issued),
            (std::vector<std::string>{"status default/job1", "spec.queue default/job1", "status default/job2",
                                      "spec.queue default/job2", "status default/job3", "status default/job3",
                                      "spec.queue default/job3"}));
  std::vector<std::string> job3_decisions;
  for (const auto& w : serve.issued) {
    if (w.what == "status default/job3") job3_decisions.emplace_back(actors::decision_kind_name(w.decision));
  }
  ASSERT_EQ(job3_decisions.size(), 2u);
  EXPECT_NE(job3_decisions[0], "admit");
  EXPECT_EQ(job3_decisions[1], "admit");
  for (const auto& w : serve.issued) EXPECT_EQ(kinds.at(w.round_seq - 1), "round") << w.what;
  EXPECT_EQ(decided_state(serve.engine()),
            (std::vector<std::string>{"default/job2 holds phase=Dequeued", "default/job3 holds phase=Dequeued",
                                      "quota team-a used cpu 4000"}));
  // Every cycle went through its steps in order; the last round wrote nothing new.
  ASSERT_FALSE(log_.steps.empty());
  EXPECT_EQ(log_.steps.back(), LoopStep::kWritesIssued);
}

TEST_F(ServeLoopTest, a_follower_journals_every_input_and_decides_nothing) {
  ScriptedServe serve(dir_ / "journal", admission_script(), api_, clock_, log_, false);
  ASSERT_EQ(serve.loop().run(), ServeEnd::kStopped);

  const std::vector<std::string> kinds = record_kinds(serve.journal());
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "round"), 0);
  EXPECT_EQ(std::count(kinds.begin(), kinds.end(), "watch"), 6);
  EXPECT_TRUE(serve.issued.empty());
  EXPECT_EQ(
      decided_state(serve.engine()),
      (std::vector<std::string>{"default/job2 waits phase=", "default/job3 waits phase=", "quota team-a used cpu 0"}));
}

TEST_F(ServeLoopTest, a_lost_lease_is_journaled_and_ends_the_loop_without_another_write) {
  std::deque<Beat> script = admission_script();
  controller::LoopInput lost;
  lost.kind = controller::LoopInput::Kind::kLost;
  lost.text = "koordq-0";
  script[2].inputs.push_back(std::move(lost));  // with job2's arrival
  ScriptedServe serve(dir_ / "journal", std::move(script), api_, clock_, log_);

  EXPECT_EQ(serve.loop().run(), ServeEnd::kMustRestart);
  const std::vector<std::string> kinds = record_kinds(serve.journal());
  ASSERT_FALSE(kinds.empty());
  EXPECT_EQ(kinds.back(), "role");  // after job2's watch event, in the same batch, with no round
  EXPECT_EQ(kinds[kinds.size() - 2], "watch");
  EXPECT_EQ(unit_writes(serve.issued), (std::vector<std::string>{"status default/job1", "spec.queue default/job1"}));
}

controller::LoopInput tick() {
  controller::LoopInput in;
  in.kind = controller::LoopInput::Kind::kTick;
  return in;
}

TEST_F(ServeLoopTest, a_tick_is_journaled_and_decided_on_only_once_a_deadline_is_due) {
  std::deque<Beat> script = admission_script();
  script.pop_back();  // job1 stays: job3 keeps waiting, so its Queue has a deadline to retry it
  const int64_t waiting_since = script.back().time;
  script.push_back({waiting_since + 1 * kMs, {}});      // the answers to job3's status write
  script.push_back({waiting_since + 2 * kMs, {}, {}});  // a tick before the deadline
  script.back().inputs.push_back(tick());
  script.push_back({waiting_since + 3600 * kSec, {}, {}});  // a tick an hour later
  script.back().inputs.push_back(tick());
  ScriptedServe serve(dir_ / "journal", std::move(script), api_, clock_, log_);
  ASSERT_EQ(serve.loop().run(), ServeEnd::kStopped);

  const std::vector<std::string> kinds = record_kinds(serve.journal());
  ASSERT_EQ(std::count(kinds.begin(), kinds.end(), "tick"), 1);
  const size_t at = std::find(kinds.begin(), kinds.end(), "tick") - kinds.begin();
  ASSERT_LT(at + 1, kinds.size());
  EXPECT_EQ(kinds[at + 1], "round");  // the tick is a batch of its own, decided on
  auto record = serve.journal().reader().get(at + 1);
  ASSERT_TRUE(record.ok() && record->has_value());
  EXPECT_EQ((*record)->time(), waiting_since + 3600 * kSec);
  // Nothing at all is journaled for the early tick.
  for (uint64_t seq = 1; seq <= serve.journal().reader().last_seq(); ++seq) {
    auto r = serve.journal().reader().get(seq);
    ASSERT_TRUE(r.ok() && r->has_value());
    EXPECT_NE((*r)->time(), waiting_since + 2 * kMs) << "seq " << seq;
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
