// `koordq explain` (behaviour.md §24.2) over hand-built journals: the decisions come from the
// decision logic folded exactly as the router does it, and the story of one unit tells each
// record that touched it, its position while it waits, and the quota path of every attempt.
#include "replay/explain.hpp"

#include <atomic>
#include <future>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_snapshot.hpp"
#include "journal/journal.hpp"
#include "journal/unit_index.hpp"
#include "journal/watch_record.hpp"
#include "replay/explain_fold.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::Decision;
using actors::DecisionKind;
using replay::Story;
using replay::StoryEntry;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr int64_t kStart = 1'776'000'000 * kSec;  // 2026-04-12T13:20:00Z
constexpr char kJournalUuid[] = "00000000-0000-4000-8000-000000000001";

// Records appended and folded the way the router does it: inputs, then the round decided on the
// folded state after them.
class StoryJournal {
 public:
  void watch(schema::WatchEventType type, schema::WatchedObject object) {
    schema::WatchEvent event;
    event.type = type;
    event.object = std::move(object);
    append(*journal::make_watch_body(event, schema::RawObjectMode::kOff));
  }
  void added(schema::WatchedObject o) { watch(schema::WatchEventType::kAdded, std::move(o)); }
  void modified(schema::WatchedObject o) { watch(schema::WatchEventType::kModified, std::move(o)); }
  void deleted(schema::WatchedObject o) { watch(schema::WatchEventType::kDeleted, std::move(o)); }
  void tick() { append(*actors::make_tick_body()); }

  std::vector<Decision> round() {
    const uint64_t basis = chain_.last_seq();
    std::vector<Decision> decisions = live_.decide();
    append(*actors::make_round_body(basis, decisions));
    last_round = chain_.last_seq();
    return decisions;
  }

  // The answer to the status patch of decision `index` of the last round.
  void outcome(const std::vector<Decision>& round, uint32_t index, actors::OutcomeResult result, int32_t http_code,
               const std::string& rv = "") {
    actors::Outcome o;
    o.decision_seq = last_round;
    o.decision_index = index;
    o.write_kind = actors::WriteKind::kStatusPatch;
    o.result = result;
    o.http_code = http_code;
    o.resource_version = rv;
    o.target = round.at(index).target;
    append(*actors::make_outcome_body(o));
  }

  void later(int64_t nanos) { time += nanos; }

  // The story of `ns/name`, told from the records up to `last_seq`.
  replay::StoryFolder fold(const std::string& ns, const std::string& name, uint64_t last_seq = UINT64_MAX) const {
    replay::StoryFolder folder(ns, name);
    for (const auto& r : records_) {
      if (r.seq() > last_seq) break;
      const Status added = folder.add(r);
      if (!added.ok()) throw std::runtime_error(added.message());
    }
    return folder;
  }
  Story story(const std::string& name) const {
    const replay::StoryFolder folder = fold("default", name);
    if (!folder.latest_uid()) throw std::runtime_error("no story for " + name);
    return folder.story(*folder.latest_uid());
  }

  int64_t time = kStart;
  uint64_t last_round = 0;
  uint64_t last_seq() const { return chain_.last_seq(); }
  const std::vector<journal::StoredRecord>& records() const { return records_; }

  // Encodes the live state after every `every`-th record, as `serve` writes snapshots.
  void snapshot_every(uint64_t every) { snapshot_every_ = every; }
  const std::vector<std::pair<uint64_t, std::string>>& snapshots() const { return snapshots_; }

 private:
  void append(const journal::CapnpRecordBody& body) {
    journal::StoredRecord r = chain_.append(body, time);
    const Status applied = actors::apply_record(live_, r);
    if (!applied.ok()) throw std::runtime_error(applied.message());
    if (snapshot_every_ != 0 && r.seq() % snapshot_every_ == 0) {
      snapshots_.emplace_back(r.seq(), actors::encode_state_snapshot(live_, r.seq(), r.time(), kJournalUuid));
    }
    records_.push_back(std::move(r));
  }

  RecordChain chain_{kJournalUuid};
  actors::Scheduler live_;
  std::vector<journal::StoredRecord> records_;
  uint64_t snapshot_every_ = 0;
  std::vector<std::pair<uint64_t, std::string>> snapshots_;
};

// A stored record appended again: the same canonical bytes, since the journal it goes to has the
// same UUID and is at the same seq.
class StoredBody final : public journal::RecordBody {
 public:
  explicit StoredBody(const journal::StoredRecord& record) : record_(record) {}
  journal::RecordKind kind() const override { return record_.kind(); }
  std::string canonical_bytes(uint64_t seq, int64_t, const journal::Hash&) const override {
    if (seq != record_.seq()) throw std::runtime_error("appended at seq " + std::to_string(seq));
    return std::string(record_.canonical_bytes());
  }
  std::optional<int64_t> explicit_time() const override { return record_.time(); }

 private:
  const journal::StoredRecord& record_;
};

// The records and snapshots of `j` in a journal in `dir` (with the per-unit index).
std::unique_ptr<journal::Journal> write_journal(const StoryJournal& j, const std::filesystem::path& dir,
                                                journal::RecordClock& clock) {
  auto journal = open_test_journal(dir, clock, kJournalUuid);
  std::promise<void> all;
  std::atomic<size_t> acked{0};
  std::atomic<bool> failed{false};
  const size_t total = j.records().size();
  for (const auto& r : j.records()) {
    journal->writer().append(std::make_unique<StoredBody>(r), [&](const Result<journal::AppendedRecord>& a) {
      if (!a.ok()) failed = true;
      if (++acked == total) all.set_value();
    });
  }
  all.get_future().wait();
  if (failed) throw std::runtime_error("an append failed");
  for (const auto& [seq, bytes] : j.snapshots()) {
    if (Status s = journal->put_snapshot(seq, bytes); !s.ok()) throw std::runtime_error(s.message());
  }
  return journal;
}

// The seqs of `j`'s records that name NS/NAME, read from the records themselves.
std::vector<uint64_t> seqs_naming(const StoryJournal& j, const std::string& unit) {
  std::vector<uint64_t> seqs;
  for (const auto& r : j.records()) {
    const auto units = journal::units_named_by(r.reader());
    if (std::find(units.begin(), units.end(), unit) != units.end()) seqs.push_back(r.seq());
  }
  return seqs;
}

std::vector<std::string> summaries(const Story& s) {
  std::vector<std::string> out;
  for (const auto& e : s.entries) out.push_back(e.kind + "  " + e.summary);
  return out;
}

const StoryEntry& entry_with(const Story& s, const std::string& prefix) {
  for (const auto& e : s.entries) {
    if (e.summary.rfind(prefix, 0) == 0) return e;
  }
  throw std::runtime_error("no entry starting with " + prefix);
}

int index_of(const std::vector<Decision>& round, DecisionKind kind) {
  for (size_t i = 0; i < round.size(); ++i) {
    if (round[i].kind == kind) return static_cast<int>(i);
  }
  return -1;
}

TEST(Explain, a_failed_attempt_in_a_three_level_tree_shows_every_level_the_check_saw) {
  StoryJournal j;
  j.added(quota("top", "", {{"cpu", "2"}}));
  j.added(quota("mid", "top", {{"cpu", "10"}, {"memory", "1Gi"}}));
  j.added(quota("leaf", "mid", {{"cpu", "10"}}));
  j.added(queue("leaf"));
  schema::QueueUnit u = unit("job", "leaf", "3");
  u.spec.resource["memory"] = "512Mi";
  u.spec.request = u.spec.resource;
  j.added(u);
  j.round();

  const Story s = j.story("job");
  EXPECT_EQ(s.uid, "uid-default-job");
  EXPECT_THAT(
      summaries(s),
      ElementsAre("watch  ADDED: phase Enqueued, priority 0, quota leaf, request cpu=3,memory=512Mi, position 1",
                  "round  fail: limited quotaName:top, limited resKey:cpu, (attempt 1); backoff 1s after 1 "
                  "failure, position 1"));
  const StoryEntry& fail = s.entries[1];
  ASSERT_TRUE(fail.quota_path.has_value());
  ASSERT_EQ(fail.quota_path->size(), 4u);
  const auto& path = *fail.quota_path;
  EXPECT_EQ(path[0].quota, "leaf");
  EXPECT_EQ(path[1].quota, "mid");
  EXPECT_EQ(path[1].resource, "cpu");
  EXPECT_EQ(path[2].quota, "mid");
  EXPECT_EQ(path[2].resource, "memory");
  EXPECT_EQ(path[3].quota, "top");
  EXPECT_FALSE(path[3].pass);
  EXPECT_EQ(fail.phase, "Enqueued");
  EXPECT_EQ(fail.position, 1);
  EXPECT_FALSE(s.entries[0].quota_path.has_value());

  const std::string text = replay::render_story_text(s);
  EXPECT_THAT(text, StartsWith("default/job uid uid-default-job\n2026-04-12T13:20:00.000Z  #5  watch  ADDED"));
  EXPECT_THAT(text, HasSubstr("position 1\n"
                              "    leaf cpu: used 0 + request 3000 <= 10000\n"
                              "    mid cpu: used 0 + request 3000 <= 10000\n"
                              "    mid memory: used 0 + request 536870912 <= 1073741824\n"
                              "    top cpu: used 0 + request 3000 > 2000\n"));
}

TEST(Explain, an_admission_then_its_write_then_the_watch_echo) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "10"}}));
  j.added(queue("q"));
  j.added(unit("a", "q", "2"));
  const auto round = j.round();
  const int admit = index_of(round, DecisionKind::kAdmit);
  ASSERT_GE(admit, 0);
  j.later(5 * kMs);
  j.outcome(round, static_cast<uint32_t>(admit), actors::OutcomeResult::kSuccess, 200, "101");
  schema::QueueUnit echo = unit("a", "q", "2");
  echo.metadata.resource_version = "101";
  echo.spec.queue = "q";
  echo.status = actors::merged(echo.status, *round[static_cast<size_t>(admit)].status_patch);
  j.modified(echo);

  const Story s = j.story("a");
  ASSERT_EQ(s.entries.size(), 4u);
  const StoryEntry& admitted = s.entries[1];
  EXPECT_EQ(admitted.kind, "round");
  EXPECT_THAT(admitted.summary, StartsWith("admit: "));
  EXPECT_THAT(admitted.summary, HasSubstr("(attempt 1); spec.queue set to q; phase Enqueued -> Dequeued"));
  EXPECT_EQ(admitted.phase, "Dequeued");
  EXPECT_FALSE(admitted.position.has_value());
  ASSERT_TRUE(admitted.quota_path.has_value());
  EXPECT_TRUE(admitted.quota_path->at(0).pass);
  EXPECT_EQ(s.entries[2].summary,
            "status patch of #" + std::to_string(j.last_round) + " (admit): success (HTTP 200), resourceVersion 101");
  EXPECT_EQ(s.entries[3].summary,
            "MODIFIED (resourceVersion 101): phase Enqueued -> Dequeued, spec.queue <none> -> q, admitted replicas 0 "
            "-> 1, attempts 0 -> 1, status message updated");
  EXPECT_EQ(s.entries[3].phase, "Dequeued");
  EXPECT_FALSE(s.entries[3].position.has_value());
}

TEST(Explain, a_write_conflict_releases_the_reservation_and_the_unit_waits_again) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "10"}}));
  j.added(queue("q"));
  j.added(unit("a", "q", "2"));
  const auto round = j.round();
  j.outcome(round, static_cast<uint32_t>(index_of(round, DecisionKind::kAdmit)), actors::OutcomeResult::kConflict, 409);

  const Story s = j.story("a");
  EXPECT_EQ(s.entries.back().summary, "status patch of #" + std::to_string(j.last_round) +
                                          " (admit): write conflict (HTTP 409); reservation released; phase "
                                          "Dequeued -> Enqueued, position 1");
  EXPECT_EQ(s.entries.back().phase, "Enqueued");
}

TEST(Explain, positions_are_the_queue_order_after_each_record) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "1"}}));
  j.added(queue("q"));
  j.added(unit("x1", "q", "5", 0, 10 * kSec));
  j.added(unit("x2", "q", "5", 0, 20 * kSec));
  j.added(unit("x3", "q", "5", 0, 30 * kSec));
  j.added(unit("x0", "q", "5", 5, 40 * kSec));
  schema::QueueUnit x3 = unit("x3", "q", "5", 10, 30 * kSec);
  x3.metadata.resource_version = "200";
  j.modified(x3);

  const Story s = j.story("x3");
  EXPECT_THAT(summaries(s), ElementsAre("watch  ADDED: phase Enqueued, priority 0, quota q, request cpu=5, position 3",
                                        "watch  MODIFIED (resourceVersion 200): priority 0 -> 10, position 1"));
  EXPECT_EQ(s.entries[0].position, 3);
  EXPECT_EQ(j.story("x0").entries[0].position, 1);
}

TEST(Explain, preemption_is_told_for_the_preemptor_and_for_the_victim) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "4"}}));
  j.added(queue("q", "Priority",
                {{"koord-queue/wait-for-pods-running", "true"}, {"koord-queue/enable-queueunit-preemption", "true"}}));
  schema::QueueUnit low = unit("low", "q", "1", 1, 100);
  low.spec.resource.clear();
  low.spec.request.clear();
  low.spec.pod_set.push_back({"worker", 4, std::nullopt, {{"main", {{"cpu", "1"}}, {}}}});
  low.status.phase = "Dequeued";
  low.status.admissions = {{"worker", 4, std::nullopt, 0, std::nullopt}};
  low.status.last_allocate_time = 0;
  j.added(low);
  j.later(20 * kMs);
  j.added(unit("urgent", "q", "2", 10, 300));
  const auto preemption = j.round();
  j.outcome(preemption, static_cast<uint32_t>(index_of(preemption, DecisionKind::kPreempt)),
            actors::OutcomeResult::kSuccess, 200, "250");

  EXPECT_EQ(entry_with(j.story("urgent"), "fail: ").summary,
            "fail: limited quotaName:q, limited resKey:cpu,; preempt succeed (attempt 1); backoff 1s after 1 "
            "failure; preemptor of default/low (4 replicas), position 1");
  const Story victim = j.story("low");
  const StoryEntry& preempted = entry_with(victim, "preempt: ");
  EXPECT_EQ(preempted.summary,
            "preempt: Preempted by default/urgent in queue q; victim: 4 replicas marked for reclaim");
  EXPECT_FALSE(preempted.quota_path.has_value());

  // The job extension gives the replicas back: the reclaim is observed.
  low.metadata.resource_version = "300";
  low.status.admissions = {{"worker", 0, std::nullopt, 0, std::nullopt}};
  j.later(50 * kMs);
  j.modified(low);
  j.round();
  const Story after = j.story("low");
  EXPECT_THAT(entry_with(after, "MODIFIED").summary, HasSubstr("admitted replicas 4 -> 0"));
  // With its replicas given back it waits for a top-up.
  EXPECT_EQ(entry_with(after, "reclaimObserved").summary,
            "reclaimObserved: Reclaimed 4 replicas in queue q, position 1");
}

TEST(Explain, queue_not_found_and_deactivation_are_told) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "1"}}));
  j.added(queue("q"));
  j.added(unit("orphan", "nowhere", "1"));
  j.round();
  j.later(11 * kSec);
  j.tick();
  j.round();
  EXPECT_EQ(j.story("orphan").entries.back().summary, "queueNotFound: queue nowhere does not exist");

  j.added(unit("idle", "q", "5"));
  schema::QueueUnit idle = unit("idle", "q", "5");
  idle.spec.active = false;
  idle.metadata.resource_version = "101";
  j.later(kSec);
  j.modified(idle);
  j.round();
  const Story s = j.story("idle");
  EXPECT_THAT(entry_with(s, "MODIFIED").summary, StartsWith("MODIFIED (resourceVersion 101): deactivated"));
  EXPECT_THAT(entry_with(s, "deactivated: ").summary, HasSubstr("deactivated: "));
}

TEST(Explain, a_spec_change_ends_the_backoff) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "2"}}));
  j.added(queue("q"));
  j.added(unit("big", "q", "3"));
  j.round();
  schema::QueueUnit smaller = unit("big", "q", "1");
  smaller.metadata.resource_version = "101";
  j.later(100 * kMs);
  j.modified(smaller);
  EXPECT_EQ(j.story("big").entries.back().summary,
            "MODIFIED (resourceVersion 101): request cpu=3 -> cpu=1, backoff ended, position 1");
}

TEST(Explain, every_uid_of_the_name_is_listed_and_the_latest_is_told) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "1"}}));
  j.added(queue("q"));
  schema::QueueUnit first = unit("job", "q", "5");
  first.metadata.uid = "uid-1";
  j.added(first);
  j.later(kSec);
  j.deleted(first);
  const uint64_t before_second = j.last_seq();
  schema::QueueUnit second = unit("job", "q", "5");
  second.metadata.uid = "uid-2";
  j.later(kSec);
  j.added(second);

  const replay::StoryFolder folder = j.fold("default", "job");
  EXPECT_THAT(folder.uids(), ElementsAre("uid-1", "uid-2"));
  EXPECT_EQ(folder.latest_uid(), "uid-2");
  const Story old = folder.story("uid-1");
  EXPECT_THAT(old.other_uids, ElementsAre("uid-2"));
  EXPECT_EQ(old.entries.back().summary, "DELETED: was Enqueued");
  EXPECT_FALSE(old.entries.back().phase.has_value());
  EXPECT_THAT(replay::render_story_text(folder.story("uid-2")),
              StartsWith("default/job uid uid-2 (other uids: uid-1)\n"));

  // Ending the history before the second UID appeared (--at) tells the first.
  const replay::StoryFolder earlier = j.fold("default", "job", before_second);
  EXPECT_EQ(earlier.latest_uid(), "uid-1");
  EXPECT_THAT(earlier.uids(), ElementsAre("uid-1"));
  EXPECT_FALSE(j.fold("default", "other").latest_uid().has_value());
}

TEST(Explain, json_has_the_keys_in_the_specified_order_and_omits_what_is_absent) {
  Story s;
  s.namespace_ = "default";
  s.name = "job";
  s.uid = "u2";
  s.other_uids = {"u1"};
  StoryEntry watch;
  watch.seq = 7;
  watch.time = kStart + 250 * kMs;
  watch.kind = "watch";
  watch.summary = "ADDED: \"quoted\", position 2";
  watch.phase = "Enqueued";
  watch.position = 2;
  StoryEntry fail = watch;
  fail.seq = 8;
  fail.kind = "round";
  fail.summary = "fail";
  fail.position.reset();
  fail.quota_path = std::vector<actors::QuotaCheckStep>{{"q", "cpu", 1000, 3000, 2000, false}};
  StoryEntry gone;
  gone.seq = 9;
  gone.time = kStart;
  gone.kind = "watch";
  gone.summary = "DELETED";
  s.entries = {watch, fail, gone};
  EXPECT_EQ(replay::render_story_json(s),
            R"({"namespace":"default","name":"job","uid":"u2","otherUIDs":["u1"],"entries":[)"
            R"({"seq":7,"time":"2026-04-12T13:20:00.250Z","kind":"watch","summary":"ADDED: \"quoted\", position 2",)"
            R"("phase":"Enqueued","position":2},)"
            R"({"seq":8,"time":"2026-04-12T13:20:00.250Z","kind":"round","summary":"fail","phase":"Enqueued",)"
            R"("quotaPath":[{"quota":"q","resource":"cpu","used":1000,"request":3000,"limit":2000,"pass":false}]},)"
            R"({"seq":9,"time":"2026-04-12T13:20:00.000Z","kind":"watch","summary":"DELETED"}]})"
            "\n");
}

TEST(Explain, a_record_that_does_not_decode_is_an_error_naming_its_seq) {
  RecordChain chain;
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto round = body->record().initBody().initRound();
  round.setBasis(0);
  auto d = round.initDecisions(1)[0];
  auto ref = d.initTarget().initUnit();
  ref.setNamespace("default");
  ref.setName("job");
  d.setKind(static_cast<wire::Decision::Kind>(999));
  replay::StoryFolder folder("default", "job");
  const Status added = folder.add(chain.append(*body, kStart));
  ASSERT_FALSE(added.ok());
  EXPECT_THAT(added.message(), StartsWith("record 1: "));
}

// Units that arrive, wait behind a full quota, are admitted as others finish, with long stretches of
// ticks between (which the indexed fold skips by restoring snapshots), then are deleted.
StoryJournal busy_queue() {
  StoryJournal j;
  j.snapshot_every(16);
  j.added(quota("q", "", {{"cpu", "2"}}));
  j.added(queue("q"));
  std::vector<schema::QueueUnit> units;
  for (int i = 0; i < 6; ++i) {
    units.push_back(unit("job" + std::to_string(i), "q", "1"));
    units.back().metadata.uid = "uid-" + std::to_string(i);
    j.later(kSec);
    j.added(units.back());
    const auto decisions = j.round();
    for (uint32_t d = 0; d < decisions.size(); ++d) {
      if (decisions[d].kind == DecisionKind::kAdmit) j.outcome(decisions, d, actors::OutcomeResult::kSuccess, 200);
    }
    for (int t = 0; t < 40; ++t) {
      j.later(kSec);
      j.tick();
    }
    if (i >= 2) {
      j.later(kSec);
      j.deleted(units[i - 2]);
      const auto after = j.round();
      for (uint32_t d = 0; d < after.size(); ++d) {
        if (after[d].kind == DecisionKind::kAdmit) j.outcome(after, d, actors::OutcomeResult::kSuccess, 200);
      }
    }
  }
  return j;
}

class ExplainIndex : public ::testing::Test {
 protected:
  TempDir dir_;
  int64_t now_ = kStart;
  journal::RecordClock clock_{[this] { return now_; }, [this] { return now_; }};
};

TEST_F(ExplainIndex, names_exactly_the_records_of_each_unit) {
  const StoryJournal j = busy_queue();
  auto journal = write_journal(j, dir_.path(), clock_);
  for (int i = 0; i < 6; ++i) {
    const std::string name = "job" + std::to_string(i);
    auto touches = journal::unit_touches(journal->store(), "default", name, 1, j.last_seq());
    ASSERT_TRUE(touches.ok()) << touches.message();
    ASSERT_TRUE(touches->has_value());
    EXPECT_EQ(**touches, seqs_naming(j, "default/" + name)) << name;
    EXPECT_GE((*touches)->size(), 2u) << name;  // added, deleted or decided
  }
  auto none = journal::unit_touches(journal->store(), "default", "job", 1, j.last_seq());
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE((*none)->empty()) << "a name that is a prefix of others names none of their records";
  auto clamped = journal::unit_touches(journal->store(), "default", "job0", 1, 3);
  ASSERT_TRUE(clamped.ok());
  EXPECT_THAT(**clamped, ElementsAre(3));
}

TEST_F(ExplainIndex, the_indexed_story_of_every_unit_equals_the_story_of_every_record) {
  const StoryJournal j = busy_queue();
  auto journal = write_journal(j, dir_.path(), clock_);
  for (int i = 0; i < 6; ++i) {
    const std::string name = "job" + std::to_string(i);
    auto plan = replay::plan_story(journal->reader(), "default", name, 1, j.last_seq());
    ASSERT_TRUE(plan.ok()) << plan.message();
    ASSERT_TRUE(plan->indexed);
    EXPECT_LT(plan->records(), j.last_seq()) << name;
    replay::StoryFolder indexed("default", name);
    uint64_t folded = 0;
    // Restoring across any stretch of more than 8 records without the unit: the 40-tick gaps.
    const Status s = replay::fold_story(
        journal->reader(), *plan, indexed, [&](uint64_t, uint64_t records) { folded = records; }, 8);
    ASSERT_TRUE(s.ok()) << s.message();
    // job0..job3 are deleted two arrivals after their own, across ticks the fold restores over.
    if (i <= 3) {
      EXPECT_LT(folded, plan->records()) << name << ": the gaps were restored, not folded";
    }
    const replay::StoryFolder every = j.fold("default", name);
    ASSERT_TRUE(every.latest_uid().has_value());
    EXPECT_EQ(indexed.uids(), every.uids());
    EXPECT_EQ(indexed.story(*every.latest_uid()).entries, every.story(*every.latest_uid()).entries) << name;
  }
  replay::StoryFolder unknown("default", "nobody");
  auto plan = replay::plan_story(journal->reader(), "default", "nobody", 1, j.last_seq());
  ASSERT_TRUE(plan.ok());
  ASSERT_TRUE(replay::fold_story(journal->reader(), *plan, unknown).ok());
  EXPECT_FALSE(unknown.latest_uid().has_value());
}

TEST_F(ExplainIndex, a_journal_written_before_the_index_is_folded_from_its_first_record) {
  const StoryJournal j = busy_queue();
  {
    auto journal = write_journal(j, dir_.path(), clock_);
    ASSERT_TRUE(journal->store()
                    .db()
                    .Delete(rocksdb::WriteOptions(), journal->store().meta(), journal::kMetaUnitIndexFrom)
                    .ok());
  }
  // Opened again by a binary with the index: indexed from the next record on.
  auto journal = open_test_journal(dir_.path(), clock_, kJournalUuid);
  auto from = journal->reader().meta(journal::kMetaUnitIndexFrom);
  ASSERT_TRUE(from.ok());
  EXPECT_EQ(from->value_or(""), std::to_string(j.last_seq() + 1));
  auto plan = replay::plan_story(journal->reader(), "default", "job3", 1, j.last_seq());
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(plan->indexed);
  EXPECT_EQ(plan->records(), j.last_seq());
  replay::StoryFolder folder("default", "job3");
  ASSERT_TRUE(replay::fold_story(journal->reader(), *plan, folder).ok());
  EXPECT_EQ(folder.story("uid-3").entries, j.fold("default", "job3").story("uid-3").entries);
}

TEST_F(ExplainIndex, retention_drops_the_keys_of_the_dropped_records) {
  const StoryJournal j = busy_queue();
  auto journal = write_journal(j, dir_.path(), clock_);
  const std::vector<uint64_t> all = seqs_naming(j, "default/job1");
  const uint64_t cut = all[all.size() / 2];
  auto dropped = journal::drop_unit_index_before(journal->store(), cut);
  ASSERT_TRUE(dropped.ok()) << dropped.message();
  EXPECT_GT(*dropped, 0u);
  auto touches = journal::unit_touches(journal->store(), "default", "job1", 1, j.last_seq());
  ASSERT_TRUE(touches.ok());
  std::vector<uint64_t> kept;
  for (const uint64_t s : all) {
    if (s >= cut) kept.push_back(s);
  }
  EXPECT_EQ(**touches, kept);
}

TEST(UnitIndex, names_units_of_watch_round_and_outcome_records_only) {
  StoryJournal j;
  j.added(quota("q", "", {{"cpu", "4"}}));
  j.added(queue("q"));
  j.added(unit("a", "q", "1"));
  j.added(unit("b", "q", "1"));
  const auto decisions = j.round();
  const int admit = index_of(decisions, DecisionKind::kAdmit);
  ASSERT_GE(admit, 0);
  j.outcome(decisions, static_cast<uint32_t>(admit), actors::OutcomeResult::kSuccess, 200);
  j.tick();
  const auto& r = j.records();
  EXPECT_TRUE(journal::units_named_by(r[0].reader()).empty()) << "an ElasticQuota";
  EXPECT_TRUE(journal::units_named_by(r[1].reader()).empty()) << "a Queue";
  EXPECT_THAT(journal::units_named_by(r[2].reader()), ElementsAre("default/a"));
  std::vector<std::string> round_units;  // each once, in the order the round names them
  for (const auto& d : decisions) {
    const auto* u = std::get_if<actors::UnitRef>(&d.target);
    if (u == nullptr) continue;
    const std::string key = u->namespace_ + "/" + u->name;
    if (std::find(round_units.begin(), round_units.end(), key) == round_units.end()) round_units.push_back(key);
  }
  ASSERT_FALSE(round_units.empty());
  EXPECT_EQ(journal::units_named_by(r[4].reader()), round_units);
  const auto& admitted = std::get<actors::UnitRef>(decisions[admit].target);
  EXPECT_THAT(journal::units_named_by(r[5].reader()), ElementsAre("default/" + admitted.name));
  EXPECT_TRUE(journal::units_named_by(r[6].reader()).empty()) << "a tick";
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
