// The writes a previous `serve` decided and never heard back about (design.md §3): at start, the
// state restored from its journal names exactly those, each by its decision's address, and their
// `unknown` outcomes, journaled and applied, release what the writes reserved (behaviour.md §7.3).
#include "controller/unanswered_writes.hpp"

#include <future>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "controller/serve_start.hpp"
#include "controller/sync_appender.hpp"
#include "journal/watch_record.hpp"
#include "replay/replay.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/scripted_serve.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::Decision;
using actors::DecisionKind;
using actors::Outcome;
using actors::OutcomeResult;
using actors::WriteKind;

constexpr int64_t kStart = 1'776'000'000 * kSec;

// A journal written as `koordq serve` writes it: each record appended until durable, read back and
// applied to the live state; each round decided on that state and journaled after its inputs.
class ServedJournal {
 public:
  explicit ServedJournal(const controller::StartOptions& options) {
    auto opened = journal::Journal::open(options.journal);
    if (!opened.ok()) throw std::runtime_error(opened.message());
    journal_ = std::move(opened).value();
    append(default_config_record(*journal_));
  }

  uint64_t append(std::unique_ptr<journal::CapnpRecordBody> body) {
    body->set_explicit_time(time);
    std::promise<Result<journal::AppendedRecord>> done;
    journal_->writer().append(std::move(body), [&](const Result<journal::AppendedRecord>& r) { done.set_value(r); });
    auto appended = done.get_future().get();
    if (!appended.ok()) throw std::runtime_error(appended.message());
    auto record = journal_->reader().get(appended->seq);
    if (!record.ok() || !record->has_value()) throw std::runtime_error("cannot read back the record");
    if (Status s = actors::apply_record(live, **record); !s.ok()) throw std::runtime_error(s.message());
    last_seq_ = appended->seq;
    return last_seq_;
  }

  void added(schema::WatchedObject object) {
    schema::WatchEvent event;
    event.type = schema::WatchEventType::kAdded;
    event.object = std::move(object);
    append(journal::make_watch_body(event, schema::RawObjectMode::kOff));
  }

  // A relist epoch of one resource at a first start: every object new.
  void relist(schema::ObjectKind kind, const std::vector<schema::WatchedObject>& objects) {
    append(actors::make_relist_body(actors::RelistPhase::kBegin, kind, "10"));
    for (const auto& o : objects) added(o);
    append(actors::make_relist_body(actors::RelistPhase::kEnd, kind, "10"));
  }

  struct Round {
    uint64_t seq = 0;
    std::vector<Decision> decisions;
  };
  Round round() {
    auto decisions = live.decide();
    const uint64_t seq = append(actors::make_round_body(last_seq_, decisions));
    return {seq, std::move(decisions)};
  }

  void answer(Outcome outcome) { append(actors::make_outcome_body(outcome)); }

  actors::Scheduler live;
  int64_t time = kStart;  // of the records appended next

 private:
  std::unique_ptr<journal::Journal> journal_;
  uint64_t last_seq_ = 0;
};

// The index in `round` of the decision of `kind` for the unit or Queue `name`.
uint32_t index_of(const ServedJournal::Round& round, DecisionKind kind, const std::string& name) {
  for (uint32_t i = 0; i < round.decisions.size(); ++i) {
    if (round.decisions[i].kind == kind && target_name(round.decisions[i]) == name) return i;
  }
  ADD_FAILURE() << "no " << actors::decision_kind_name(kind) << " decision for " << name << " in round " << round.seq;
  return UINT32_MAX;
}

Outcome answer(const ServedJournal::Round& round, uint32_t index, WriteKind kind, OutcomeResult result,
               const std::string& rv = "") {
  Outcome o;
  o.decision_seq = round.seq;
  o.decision_index = index;
  o.write_kind = kind;
  o.result = result;
  o.resource_version = rv;
  o.target = round.decisions.at(index).target;
  return o;
}

const char* write_kind_name(WriteKind kind) {
  switch (kind) {
    case WriteKind::kStatusPatch:
      return "status";
    case WriteKind::kSpecQueuePatch:
      return "spec.queue";
    case WriteKind::kQueueWrite:
      return "queue";
    case WriteKind::kEvent:
      break;
  }
  return "event";
}

// "<seq>.<index> <write kind>#<write index> <target> <result>", so that a mismatch reads plainly.
std::string address(const Outcome& o) {
  std::string target;
  if (const auto* u = std::get_if<actors::UnitRef>(&o.target)) {
    target = "unit " + u->namespace_ + "/" + u->name + " (" + u->uid + ", queue " + u->queue + ")";
  } else {
    target = "queue " + std::get<actors::QueueRef>(o.target).name;
  }
  return std::to_string(o.decision_seq) + "." + std::to_string(o.decision_index) + " " + write_kind_name(o.write_kind) +
         "#" + std::to_string(o.write_index) + " " + target +
         (o.result == OutcomeResult::kUnknown ? " unknown" : " answered");
}

std::vector<std::string> addresses(const std::vector<Outcome>& outcomes) {
  std::vector<std::string> out;
  for (const auto& o : outcomes) out.push_back(address(o));
  return out;
}

int64_t used_cpu(const actors::Scheduler& s, const std::string& quota) {
  const auto used = s.quotas().usage(quota).used;
  return used.count("cpu") ? used.at("cpu") : 0;
}

bool decides(const std::vector<Decision>& decisions, DecisionKind kind, const std::string& name) {
  for (const auto& d : decisions) {
    if (d.kind == kind && target_name(d) == name) return true;
  }
  return false;
}

// team-0 and team-a (4 cpu each, their Queues present) and team-b, team-c (no Queue: koordq
// creates them). Round 1 admits job1 (spec.queue already team-a) and creates both Queues; job1's
// status write and team-b's create are answered, team-c's is not. Round 2 admits job0 (team-0's
// tree decides first) and job2, whose spec.queues are still empty: none of their status writes
// and spec.queue patches is answered before the process ends.
class UnansweredWrites : public ::testing::Test {
 protected:
  void SetUp() override {
    options_.journal.dir = dir_ / "journal";
    ServedJournal j(options_);
    j.append(actors::make_role_body(actors::RoleEvent::kAcquired, "koordq-0", 1));
    j.relist(schema::ObjectKind::kElasticQuota,
             {quota("team-0", "", {{"cpu", "4"}}), quota("team-a", "", {{"cpu", "4"}}),
              quota("team-b", "", {{"cpu", "4"}}), quota("team-c", "", {{"cpu", "4"}})});
    j.relist(schema::ObjectKind::kQueue, {queue("team-0"), queue("team-a")});
    auto job1 = unit("job1", "team-a", "2", 0, kStart);
    job1.spec.queue = "team-a";
    j.relist(schema::ObjectKind::kQueueUnit, {job1});
    first_ = j.round();
    const uint32_t job1_admit = index_of(first_, DecisionKind::kAdmit, "default/job1");
    ASSERT_FALSE(first_.decisions.at(job1_admit).spec_queue_patch);
    j.answer(answer(first_, job1_admit, WriteKind::kStatusPatch, OutcomeResult::kSuccess, "101"));
    j.answer(answer(first_, index_of(first_, DecisionKind::kQueueCreate, "team-b"), WriteKind::kQueueWrite,
                    OutcomeResult::kSuccess, "1"));
    ASSERT_FALSE(HasFailure());

    j.time += kSec;
    // job0's tree (team-0) decides before team-a's, so job2's decision is not the round's first.
    j.added(unit("job0", "team-0", "1", 0, j.time));
    j.added(unit("job2", "team-a", "2", 0, j.time));
    second_ = j.round();
    ASSERT_GT(index_of(second_, DecisionKind::kAdmit, "default/job2"), 0u);
    const Decision& job2_admit = second_.decisions.at(index_of(second_, DecisionKind::kAdmit, "default/job2"));
    ASSERT_TRUE(job2_admit.spec_queue_patch);
    ASSERT_EQ(used_cpu(j.live, "team-a"), 4000);
  }

  controller::StartOptions options_;
  TempDir dir_;
  ServedJournal::Round first_;
  ServedJournal::Round second_;
};

TEST_F(UnansweredWrites, the_restored_state_names_exactly_the_writes_without_an_answer) {
  auto opened = controller::open_serve_journal(options_, "", {});
  ASSERT_TRUE(opened.ok()) << opened.message();

  const uint32_t job0 = index_of(second_, DecisionKind::kAdmit, "default/job0");
  const uint32_t job2 = index_of(second_, DecisionKind::kAdmit, "default/job2");
  const uint32_t team_c = index_of(first_, DecisionKind::kQueueCreate, "team-c");
  const std::string job0_ref = "unit default/job0 (uid-default-job0, queue team-0)";
  const std::string job2_ref = "unit default/job2 (uid-default-job2, queue team-a)";
  const std::string round = std::to_string(second_.seq) + ".";
  const std::vector<std::string> expected = {
      round + std::to_string(job0) + " status#0 " + job0_ref + " unknown",
      round + std::to_string(job0) + " spec.queue#0 " + job0_ref + " unknown",
      round + std::to_string(job2) + " status#0 " + job2_ref + " unknown",
      round + std::to_string(job2) + " spec.queue#0 " + job2_ref + " unknown",
      std::to_string(first_.seq) + "." + std::to_string(team_c) + " queue#0 queue team-c unknown",
  };
  // Each unit write addressed to its decision, as read from the round record.
  EXPECT_EQ(addresses(controller::unanswered_writes(opened->scheduler, opened->journal->reader())), expected);
}

TEST_F(UnansweredWrites, their_unknown_outcomes_journaled_release_what_the_writes_reserved) {
  auto opened = controller::open_serve_journal(options_, "", {});
  ASSERT_TRUE(opened.ok()) << opened.message();
  actors::Scheduler& s = opened->scheduler;
  ASSERT_EQ(used_cpu(s, "team-a"), 4000);

  // As `serve` does at start: the outcomes appended until durable, then applied as read back.
  std::vector<std::unique_ptr<journal::RecordBody>> bodies;
  for (const Outcome& o : controller::unanswered_writes(s, opened->journal->reader())) {
    bodies.push_back(actors::make_outcome_body(o));
  }
  ASSERT_EQ(bodies.size(), 5u);
  controller::SyncAppender appender(opened->journal->writer());
  auto seqs = appender.append(std::move(bodies));
  ASSERT_TRUE(seqs.ok()) << seqs.message();
  for (uint64_t seq : *seqs) {
    auto record = opened->journal->reader().get(seq);
    ASSERT_TRUE(record.ok() && record->has_value());
    ASSERT_TRUE(actors::apply_record(s, **record).ok());
  }

  // job2's admission is released; job1's, whose write landed, still counts until the watch shows it.
  EXPECT_EQ(used_cpu(s, "team-a"), 2000);
  EXPECT_FALSE(s.units().at("default/job2").holds);
  EXPECT_FALSE(s.units().at("default/job0").holds);
  EXPECT_TRUE(s.units().at("default/job1").holds);
  EXPECT_TRUE(controller::unanswered_writes(s).empty());
  // What did not land is decided again; team-b's Queue, created, is only waited for.
  const auto next = s.decide();
  EXPECT_TRUE(decides(next, DecisionKind::kQueueCreate, "team-c"));
  EXPECT_FALSE(decides(next, DecisionKind::kQueueCreate, "team-b"));
  EXPECT_TRUE(decides(next, DecisionKind::kAdmit, "default/job2"));
  EXPECT_TRUE(decides(next, DecisionKind::kAdmit, "default/job0"));
}

// The restart bug of a process that appended its config record without folding it: the replay
// folds it (which resets what the previous process published, §14.2/§14.3), so the first round
// after the restart was decided on another state than the replay's.
TEST_F(UnansweredWrites, a_process_start_leaves_the_live_state_the_replay_folds) {
  auto opened = controller::open_serve_journal(options_, "", {});
  ASSERT_TRUE(opened.ok()) << opened.message();
  actors::Scheduler& s = opened->scheduler;
  bool published = false;
  for (const auto& [name, q] : s.queues()) published = published || q.last_published.has_value();
  ASSERT_TRUE(published) << "the previous process published queueItemDetails: the start must forget them";

  auto started = controller::append_process_start(*opened->journal, s, default_config_record(*opened->journal));
  ASSERT_TRUE(started.ok()) << started.message();
  EXPECT_EQ(started->size(), 6u);  // the config record and five unknown outcomes

  auto replayed = actors::restore_state(opened->journal->reader(), UINT64_MAX, s.config());
  ASSERT_TRUE(replayed.ok()) << replayed.message();
  EXPECT_EQ(replayed->seq, started->back());
  EXPECT_EQ(replay::describe_differences(replay::state_differences(s, replayed->scheduler)), "");
  EXPECT_EQ(s.decide(), replayed->scheduler.decide());
  for (const auto& [name, q] : s.queues()) EXPECT_FALSE(q.last_published) << name;
}

// replay --verify compares each snapshot with the fold at its seq: a snapshot of a live state that
// had not folded a record (here the effect of a config record the fold has not seen) is named.
TEST_F(UnansweredWrites, verify_names_a_snapshot_that_differs_from_the_fold) {
  auto opened = controller::open_serve_journal(options_, "", {});
  ASSERT_TRUE(opened.ok()) << opened.message();
  journal::Journal& j = *opened->journal;
  const uint64_t head = j.reader().last_seq();
  ASSERT_TRUE(actors::write_state_snapshot(j, opened->scheduler, head, opened->scheduler.now(), j.uuid()).ok());
  auto verified = replay::verify_rounds(j.reader(), UINT64_MAX);
  ASSERT_TRUE(verified.ok()) << verified.message();
  EXPECT_TRUE(verified->ok()) << replay::render_verify_text(*verified);
  EXPECT_EQ(verified->snapshots, 1u);

  actors::Scheduler drifted = opened->scheduler;
  drifted.apply_config();
  ASSERT_TRUE(actors::write_state_snapshot(j, drifted, head, drifted.now(), j.uuid()).ok());
  verified = replay::verify_rounds(j.reader(), UINT64_MAX);
  ASSERT_TRUE(verified.ok()) << verified.message();
  ASSERT_TRUE(verified->snapshot_mismatch);
  EXPECT_FALSE(verified->ok());
  EXPECT_EQ(verified->snapshot_mismatch->seq, head);
  const std::string text = replay::render_verify_text(*verified);
  EXPECT_NE(text.find("snapshot at seq " + std::to_string(head) + " differs from the fold"), std::string::npos) << text;
  EXPECT_NE(text.find("last_published"), std::string::npos) << text;
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
