// The router's fold: folding a journal's records with apply_record (or prepare_record +
// apply_prepared, as replay and time travel do) gives the state the live calls gave, and a record
// that does not decode is an Error naming its seq that changes nothing.
#include "actors/wire/record_apply.hpp"

#include <functional>
#include <future>

#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "journal/journal.hpp"
#include "journal/watch_record.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::describe_differences;
using replay::state_differences;

using actors::apply_record;
using actors::Decision;
using actors::DecisionKind;
using actors::Scheduler;

constexpr int64_t kStart = 1'776'000'000 * kSec;

std::unique_ptr<journal::CapnpRecordBody> watch(schema::WatchEventType type, schema::WatchedObject object) {
  schema::WatchEvent event;
  event.type = type;
  event.object = std::move(object);
  return journal::make_watch_body(event, schema::RawObjectMode::kOff);
}

std::unique_ptr<journal::CapnpRecordBody> added(schema::WatchedObject o) {
  return watch(schema::WatchEventType::kAdded, std::move(o));
}

// Appends records to a real journal and, beside it, makes the calls the router makes live.
class LiveJournal {
 public:
  explicit LiveJournal(const std::filesystem::path& dir) {
    journal::JournalOptions options;
    options.dir = dir;
    options.new_uuid = "00000000-0000-4000-8000-000000000002";
    auto j = journal::Journal::open(options);
    if (!j.ok()) throw std::runtime_error(j.message());
    journal_ = std::move(j).value();
  }

  // One input record at `time`, and its effect on the live state.
  void input(int64_t time, std::unique_ptr<journal::CapnpRecordBody> body, std::function<void(Scheduler&)> apply) {
    append(time, std::move(body));
    live.advance_to(time);
    apply(live);
  }

  // The round decided on the state after the last input, journaled and applied.
  std::vector<Decision> round() {
    auto decisions = live.decide();
    const uint64_t seq = append(live.now(), actors::make_round_body(last_seq_, decisions));
    live.apply_round(seq, decisions);
    return decisions;
  }

  // Every record of the journal folded into a fresh state, by apply_record or in its two halves.
  Scheduler replay(bool prepared = false) {
    Scheduler s;
    auto cursor = journal_->reader().cursor(1);
    for (;;) {
      auto next = cursor.next();
      if (!next.ok()) throw std::runtime_error(next.message());
      if (!next->has_value()) break;
      Status applied = ok_status();
      if (prepared) {
        auto p = actors::prepare_record(std::move(**next));
        if (!p.ok()) throw std::runtime_error(p.message());
        applied = actors::apply_prepared(s, *p);
      } else {
        applied = apply_record(s, **next);
      }
      if (!applied.ok()) throw std::runtime_error(applied.message());
    }
    return s;
  }

  uint64_t last_seq() const { return last_seq_; }

  Scheduler live;

 private:
  uint64_t append(int64_t time, std::unique_ptr<journal::CapnpRecordBody> body) {
    body->set_explicit_time(time);
    std::promise<Result<journal::AppendedRecord>> done;
    journal_->writer().append(std::move(body), [&](const Result<journal::AppendedRecord>& r) { done.set_value(r); });
    auto appended = done.get_future().get();
    if (!appended.ok()) throw std::runtime_error(appended.message());
    if (appended->time != time) throw std::runtime_error("the journal moved a record's time");
    last_seq_ = appended->seq;
    return last_seq_;
  }

  std::unique_ptr<journal::Journal> journal_;
  uint64_t last_seq_ = 0;
};

TEST(RecordApply, folding_a_journal_gives_the_state_the_live_calls_gave) {
  TempDir dir;
  LiveJournal j(dir / "journal");
  int64_t t = kStart;
  auto config = std::make_unique<journal::CapnpRecordBody>();
  config->record().initBody().initConfig().setDecisionLogicVersion(actors::kDecisionLogicVersion);
  j.input(t, std::move(config), [](Scheduler& s) { s.apply_config(); });
  j.input(t, actors::make_role_body(actors::RoleEvent::kAcquired, "koordq-0", 1),
          [](Scheduler& s) { s.apply_role_acquired(); });
  j.input(t, actors::make_relist_body(actors::RelistPhase::kBegin, schema::ObjectKind::kQueueUnit, "10"),
          [](Scheduler& s) { s.apply_relist(schema::ObjectKind::kQueueUnit, true); });
  const auto q = quota("team-a", "", {{"cpu", "4"}});
  const auto queue_a = queue("team-a", "Block");
  j.input(t, added(q), [&](Scheduler& s) { s.apply_object(q, false); });
  j.input(t, added(queue_a), [&](Scheduler& s) { s.apply_object(queue_a, false); });
  j.round();

  auto job1 = unit("job1", "team-a", "3", 0, kStart);
  auto job2 = unit("job2", "team-a", "2", 5, kStart);
  t += kSec;
  j.input(t, added(job1), [&](Scheduler& s) { s.apply_object(job1, false); });
  j.input(t, added(job2), [&](Scheduler& s) { s.apply_object(job2, false); });
  j.input(t, actors::make_relist_body(actors::RelistPhase::kEnd, schema::ObjectKind::kQueueUnit, "10"),
          [](Scheduler& s) { s.apply_relist(schema::ObjectKind::kQueueUnit, false); });
  const auto first = j.round();
  const uint64_t first_round = j.last_seq();
  ASSERT_FALSE(of_kind(first, DecisionKind::kAdmit).empty());

  // The admission of job2 lands and is echoed by the watch; job1 keeps failing behind it.
  const Decision admit = *of_kind(first, DecisionKind::kAdmit).front();
  actors::Outcome outcome;
  outcome.decision_seq = first_round;
  outcome.decision_index = 0;
  outcome.target = admit.target;
  outcome.resource_version = "101";
  t += 10 * kMs;
  j.input(t, actors::make_outcome_body(outcome), [&](Scheduler& s) { s.apply_outcome(outcome); });
  job2.status = actors::merged(job2.status, *admit.status_patch);
  job2.metadata.resource_version = "101";
  j.input(t, watch(schema::WatchEventType::kModified, job2), [&](Scheduler& s) { s.apply_object(job2, false); });
  j.input(t, watch(schema::WatchEventType::kBookmark, job2), [](Scheduler&) {});
  j.round();
  for (int i = 0; i < 5; ++i) {
    t += 2 * kSec;
    j.input(t, actors::make_tick_body(), [](Scheduler&) {});
    j.round();
  }
  EXPECT_GT(j.live.units().at("default/job1").failures, 0);

  t += kSec;
  j.input(t, actors::make_role_body(actors::RoleEvent::kLost, "koordq-0", 2), [](Scheduler&) {});
  j.input(t, watch(schema::WatchEventType::kDeleted, job2), [&](Scheduler& s) { s.apply_object(job2, true); });
  j.input(t, actors::make_role_body(actors::RoleEvent::kAcquired, "koordq-0", 3),
          [](Scheduler& s) { s.apply_role_acquired(); });
  const auto last = j.round();
  ASSERT_FALSE(of_kind(last, DecisionKind::kAdmit).empty());

  const Scheduler replayed = j.replay();
  EXPECT_EQ(state_differences(replayed, j.live), std::vector<std::string>{});
  EXPECT_EQ(replayed.decide(), j.live.decide());
  const Scheduler prepared = j.replay(/*prepared=*/true);
  EXPECT_EQ(state_differences(prepared, j.live), std::vector<std::string>{});
}

TEST(RecordApply, a_prepared_record_fails_as_the_record_does_and_then_changes_nothing) {
  RecordChain chain;
  Scheduler s;
  ASSERT_TRUE(apply_record(s, chain.append(*actors::make_tick_body(), kStart)).ok());
  auto event = added(unit("job1", "team-a", "1"));
  event->record().getBody().getWatch().setEventType(static_cast<wire::Watch::EventType>(7));
  auto bad_watch = chain.append(*event, kStart + kSec);
  const std::string applied = apply_record(s, bad_watch).message();
  EXPECT_EQ(applied, "record 2: unknown watch event type 7");
  EXPECT_EQ(actors::prepare_record(std::move(bad_watch)).message(), applied);

  Decision d;
  d.target = actors::QueueRef{"team-a"};
  auto round = actors::make_round_body(1, {d});
  round->record().getBody().getRound().getDecisions()[0].setKind(static_cast<wire::Decision::Kind>(99));
  const auto bad_round = chain.append(*round, kStart + kSec);
  const auto copy = [&] { return journal::StoredRecord::parse(bad_round.stored_value()).value(); };
  EXPECT_EQ(actors::prepare_record(copy()).message(), "record 3: decision 0: unknown decision kind 99");
  auto deferred = actors::defer_record(copy());  // decoded when applied
  ASSERT_TRUE(deferred.ok());
  EXPECT_EQ(actors::apply_prepared(s, *deferred).message(), "record 3: decision 0: unknown decision kind 99");
  EXPECT_EQ(s.now(), kStart);
  EXPECT_TRUE(s.units().empty());
}

TEST(RecordApply, a_bookmark_and_a_tick_only_advance_time) {
  RecordChain chain;
  Scheduler s;
  auto bookmark = watch(schema::WatchEventType::kBookmark, unit("job1", "team-a", "1"));
  ASSERT_TRUE(apply_record(s, chain.append(*bookmark, kStart)).ok());
  ASSERT_TRUE(apply_record(s, chain.append(*actors::make_tick_body(), kStart + kSec)).ok());
  EXPECT_EQ(s.now(), kStart + kSec);
  EXPECT_TRUE(s.units().empty());
}

TEST(RecordApply, role_acquired_resets_leader_state_and_role_lost_does_not) {
  RecordChain chain;
  Scheduler s;
  ASSERT_TRUE(apply_record(s, chain.append(*added(quota("team-a", "", {{"cpu", "1"}})), kStart)).ok());
  ASSERT_TRUE(apply_record(s, chain.append(*added(queue("team-a")), kStart)).ok());
  ASSERT_TRUE(apply_record(s, chain.append(*added(unit("job1", "team-a", "2")), kStart)).ok());
  const auto fail = s.decide();
  ASSERT_EQ(of_kind(fail, DecisionKind::kFail).size(), 1u);
  ASSERT_TRUE(apply_record(s, chain.append(*actors::make_round_body(chain.last_seq(), fail), kStart)).ok());
  ASSERT_EQ(s.units().at("default/job1").failures, 1);

  auto lost = actors::make_role_body(actors::RoleEvent::kLost, "koordq-0", 1);
  ASSERT_TRUE(apply_record(s, chain.append(*lost, kStart)).ok());
  EXPECT_EQ(s.units().at("default/job1").failures, 1);
  auto acquired = actors::make_role_body(actors::RoleEvent::kAcquired, "koordq-0", 2);
  ASSERT_TRUE(apply_record(s, chain.append(*acquired, kStart)).ok());
  EXPECT_EQ(s.units().at("default/job1").failures, 0);
  EXPECT_FALSE(s.units().at("default/job1").backoff_until.has_value());
}

TEST(RecordApply, an_undecodable_round_is_an_error_naming_its_seq_and_changes_nothing) {
  RecordChain chain;
  Scheduler s;
  ASSERT_TRUE(apply_record(s, chain.append(*actors::make_tick_body(), kStart)).ok());
  Decision d;
  d.target = actors::QueueRef{"team-a"};
  auto round = actors::make_round_body(1, {d});
  round->record().getBody().getRound().getDecisions()[0].setKind(static_cast<wire::Decision::Kind>(99));
  const auto applied = apply_record(s, chain.append(*round, kStart + kSec));
  ASSERT_FALSE(applied.ok());
  EXPECT_EQ(applied.message(), "record 2: decision 0: unknown decision kind 99");
  EXPECT_EQ(s.now(), kStart);
}

TEST(RecordApply, unknown_watch_and_role_events_and_a_missing_object_are_errors_naming_the_seq) {
  RecordChain chain;
  Scheduler s;
  auto event = added(unit("job1", "team-a", "1"));
  event->record().getBody().getWatch().setEventType(static_cast<wire::Watch::EventType>(7));
  EXPECT_EQ(apply_record(s, chain.append(*event, kStart)).message(), "record 1: unknown watch event type 7");

  auto role = actors::make_role_body(actors::RoleEvent::kAcquired, "koordq-0", 1);
  role->record().getBody().getRole().setEvent(static_cast<wire::Role::Event>(5));
  EXPECT_EQ(apply_record(s, chain.append(*role, kStart)).message(), "record 2: unknown role event 5");

  auto empty = added(unit("job1", "team-a", "1"));
  empty->record().getBody().getWatch().initObject().setNone();
  EXPECT_EQ(apply_record(s, chain.append(*empty, kStart)).message(), "record 3: watched object carries no object");
  EXPECT_TRUE(s.units().empty());
}

TEST(RecordApply, an_outcome_record_releases_a_failed_admission) {
  RecordChain chain;
  Scheduler s;
  ASSERT_TRUE(apply_record(s, chain.append(*added(quota("team-a", "", {{"cpu", "4"}})), kStart)).ok());
  ASSERT_TRUE(apply_record(s, chain.append(*added(queue("team-a")), kStart)).ok());
  ASSERT_TRUE(apply_record(s, chain.append(*added(unit("job1", "team-a", "2")), kStart)).ok());
  const auto decisions = s.decide();
  const auto admits = of_kind(decisions, DecisionKind::kAdmit);
  ASSERT_EQ(admits.size(), 1u);
  ASSERT_TRUE(apply_record(s, chain.append(*actors::make_round_body(3, decisions), kStart)).ok());
  EXPECT_EQ(s.quotas().usage("team-a").used.at("cpu"), 2000);

  actors::Outcome conflict;
  conflict.decision_seq = chain.last_seq();
  conflict.result = actors::OutcomeResult::kConflict;
  conflict.http_code = 409;
  conflict.target = admits.front()->target;
  ASSERT_TRUE(apply_record(s, chain.append(*actors::make_outcome_body(conflict), kStart + kMs)).ok());
  EXPECT_TRUE(s.quotas().usage("team-a").used.empty());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
