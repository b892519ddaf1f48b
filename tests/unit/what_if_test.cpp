// `replay --what-if` (replay/what_if.hpp, behaviour.md §24.3): the pieces of the model (admission
// change, median run time, the what-if admission from the two model runs), and journals written
// the way serve writes them (inputs, rounds, write outcomes and their watch echoes, the job
// extension's transitions) asked what more or less quota would have done: units admitted earlier,
// later, newly (running for their queue's median run time) or no longer; the renderings.
#include "replay/what_if.hpp"

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/outcome_wire.hpp"
#include "actors/wire/record_apply.hpp"
#include "journal/export_line.hpp"
#include "journal/watch_record.hpp"
#include "replay/export_journal.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using replay::AdmissionChange;

constexpr char kUuid[] = "00000000-0000-4000-8000-0000000000cc";

// A journal as serve writes one: every input followed by its round; every status write answered
// by a successful outcome and observed through the watch (its echo).
class Recording {
 public:
  void add(const schema::WatchedObject& o) { event(schema::WatchEventType::kAdded, o); }

  // The job extension moves the unit to `phase`.
  void job(const std::string& key, const std::string& phase) {
    schema::QueueUnit u = live.units().at(key).object;
    u.status.phase = phase;
    u.status.message = phase;
    if (phase == "Running") {
      for (auto& a : u.status.admissions) a.running = a.replicas;
    }
    u.metadata.resource_version = std::to_string(++rv_);
    event(schema::WatchEventType::kModified, u);
  }

  // Time passes; the clock fires a tick and a round at every deadline of the live state.
  void wait(int64_t nanos) {
    const int64_t end = time + nanos;
    for (auto deadline = live.next_deadline(); deadline && *deadline <= end; deadline = live.next_deadline()) {
      time = std::max(time, *deadline - 10 * kMs);
      append(*actors::make_tick_body());
      round();
    }
    time = std::max(time, end);
  }

  std::unique_ptr<replay::ExportJournal> journal() const {
    std::string text;
    for (const auto& r : records) text += journal::render_export_line(r) + "\n";
    std::istringstream in(text);
    std::optional<journal::ChainBreak> broken;
    auto loaded = replay::ExportJournal::load(in, broken);
    if (!loaded.ok()) throw std::runtime_error(loaded.message());
    return std::move(loaded).value();
  }

  actors::Scheduler live;
  std::vector<journal::StoredRecord> records;
  int64_t time = 1000 * kSec;

 private:
  void event(schema::WatchEventType type, const schema::WatchedObject& o) {
    schema::WatchEvent e;
    e.type = type;
    e.object = o;
    append(*journal::make_watch_body(e, schema::RawObjectMode::kOff));
    round();
  }

  void round() {
    const uint64_t basis = chain_.last_seq();
    const auto decisions = live.decide();
    append(*actors::make_round_body(basis, decisions));
    const uint64_t seq = chain_.last_seq();
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      const auto* ref = std::get_if<actors::UnitRef>(&decisions[i].target);
      if (ref == nullptr || !decisions[i].status_patch) continue;
      const std::string key = actors::unit_key(ref->namespace_, ref->name);
      actors::Outcome o;
      o.decision_seq = seq;
      o.decision_index = i;
      o.result = actors::OutcomeResult::kSuccess;
      o.http_code = 200;
      o.resource_version = std::to_string(++rv_);
      o.target = decisions[i].target;
      append(*actors::make_outcome_body(o));
      schema::QueueUnit echo = live.units().at(key).object;
      echo.status = live.units().at(key).status();
      echo.metadata.resource_version = o.resource_version;
      schema::WatchEvent e;
      e.type = schema::WatchEventType::kModified;
      e.object = echo;
      append(*journal::make_watch_body(e, schema::RawObjectMode::kOff));
    }
  }

  void append(const journal::CapnpRecordBody& body) {
    time += 10 * kMs;
    auto stored = chain_.append(body, time);
    if (!actors::apply_record(live, stored).ok()) throw std::runtime_error("apply failed");
    records.push_back(std::move(stored));
  }

  RecordChain chain_{kUuid};
  uint64_t rv_ = 1000;
};

const replay::UnitAdmission& unit_of(const replay::WhatIfResult& r, const std::string& name) {
  for (const auto& u : r.units) {
    if (u.name == name) return u;
  }
  throw std::runtime_error("no unit " + name);
}

replay::WhatIfResult ask(const Recording& rec, const replay::WhatIfSettings& settings) {
  auto journal = rec.journal();
  auto result = replay::what_if(journal->reader(), UINT64_MAX, settings);
  if (!result.ok()) throw std::runtime_error(result.message());
  return std::move(result).value();
}

replay::WhatIfSettings quota_cpu(const std::string& quota, const std::string& cpu) {
  replay::WhatIfSettings s;
  s.quota_max[quota]["cpu"] = cpu;
  return s;
}

// team-a (2 cpu): a runs 29 s, then b is admitted; team-b (1 cpu): c and d never fit.
Recording two_teams() {
  Recording r;
  r.add(quota("team-a", "", {{"cpu", "2"}}));
  r.add(quota("team-b", "", {{"cpu", "1"}}));
  r.add(queue("team-a"));
  r.add(queue("team-b"));
  r.add(unit("a", "team-a", "2", 0, 100));
  r.add(unit("b", "team-a", "2", 0, 101));
  r.add(unit("c", "team-b", "2", 0, 102));
  r.add(unit("d", "team-b", "2", 0, 103));
  r.wait(kSec);
  r.job("default/a", "Running");
  r.wait(29 * kSec);
  r.job("default/a", "Succeed");
  r.wait(60 * kSec);
  r.job("default/b", "Running");
  r.wait(60 * kSec);
  return r;
}

TEST(WhatIfTest, AdmissionChangeOfTheTwoTimes) {
  EXPECT_EQ(replay::classify_admission(std::nullopt, std::nullopt), AdmissionChange::never_admitted);
  EXPECT_EQ(replay::classify_admission(std::nullopt, 5), AdmissionChange::newly_admitted);
  EXPECT_EQ(replay::classify_admission(5, std::nullopt), AdmissionChange::no_longer_admitted);
  EXPECT_EQ(replay::classify_admission(5, 4), AdmissionChange::earlier);
  EXPECT_EQ(replay::classify_admission(5, 6), AdmissionChange::later);
  EXPECT_EQ(replay::classify_admission(5, 5), AdmissionChange::unchanged);
}

TEST(WhatIfTest, MedianRunTime) {
  EXPECT_EQ(replay::median_run_time({}), std::nullopt);
  EXPECT_EQ(replay::median_run_time({30, 10, 20}), 20);
  EXPECT_EQ(replay::median_run_time({40, 10, 20, 30}), 25);
  EXPECT_EQ(replay::median_run_time({7}), 7);
}

TEST(WhatIfTest, OnlyWhatTheChangeAltersMovesTheRecordedAdmission) {
  // Both model runs agree: the recorded admission, whatever it is.
  EXPECT_EQ(replay::what_if_admission(100, 90, 90, 0), 100);
  EXPECT_EQ(replay::what_if_admission(std::nullopt, 90, 90, 0), std::nullopt);
  EXPECT_EQ(replay::what_if_admission(100, std::nullopt, std::nullopt, 0), 100);
  // Both admit: the recorded one moved by the change's difference.
  EXPECT_EQ(replay::what_if_admission(100, 90, 95, 0), 105);
  EXPECT_EQ(replay::what_if_admission(100, 90, 80, 0), 90);
  EXPECT_EQ(replay::what_if_admission(std::nullopt, 90, 80, 0), std::nullopt);
  // The change leaves it unadmitted, or admits it where the model without it did not.
  EXPECT_EQ(replay::what_if_admission(100, 90, std::nullopt, 0), std::nullopt);
  EXPECT_EQ(replay::what_if_admission(std::nullopt, std::nullopt, 80, 0), 80);
  EXPECT_EQ(replay::what_if_admission(100, std::nullopt, 80, 0), 80);
}

TEST(WhatIfTest, NoUnitIsAdmittedBeforeItsFirstRecord) {
  // The model without the change admitted it 60 later than the record, the one with it 65
  // earlier than that: moved by -65 the recorded 100 would be 35, before its creation at 50.
  EXPECT_EQ(replay::what_if_admission(100, 160, 95, 50), 50);
  EXPECT_EQ(replay::what_if_admission(100, 160, 95, 35), 35);
  EXPECT_EQ(replay::what_if_admission(100, 160, 95, 20), 35);
  EXPECT_EQ(replay::what_if_admission(100, 160, 95, 100), 100);
}

TEST(WhatIfTest, NoChangeReportsTheRecordedAdmissions) {
  const Recording rec = two_teams();
  for (const auto& settings : {replay::WhatIfSettings{}, quota_cpu("team-a", "2"), quota_cpu("no-such-quota", "9")}) {
    const auto r = ask(rec, settings);
    EXPECT_EQ(r.summary, (replay::WhatIfSummary{0, 0, 2, 0, 0}));
    EXPECT_EQ(unit_of(r, "a").change, AdmissionChange::unchanged);
    EXPECT_EQ(unit_of(r, "b").change, AdmissionChange::unchanged);
    EXPECT_EQ(unit_of(r, "c").change, AdmissionChange::never_admitted);
    EXPECT_EQ(replay::render_what_if_text(r),
              "earlier 0, later 0, unchanged 2, newly admitted 0, no longer admitted 0\n");
  }
}

TEST(WhatIfTest, TheRecordedAdmissionIsTheFirstAdmitRound) {
  const auto r = ask(two_teams(), {});
  const auto& a = unit_of(r, "a");
  const auto& b = unit_of(r, "b");
  ASSERT_TRUE(a.recorded && b.recorded);
  // b waits for a's Succeed, 30 s after a's admission (plus the records in between).
  EXPECT_GT(*b.recorded - *a.recorded, 30 * kSec);
  EXPECT_LT(*b.recorded - *a.recorded, 31 * kSec);
  EXPECT_EQ(a.queue, "team-a");
}

TEST(WhatIfTest, MoreQuotaAdmitsTheWaitingUnitEarlier) {
  const Recording rec = two_teams();
  const auto recorded = ask(rec, {});
  const auto r = ask(rec, quota_cpu("team-a", "4"));
  EXPECT_EQ(r.summary, (replay::WhatIfSummary{1, 0, 1, 0, 0}));
  const auto& b = unit_of(r, "b");
  EXPECT_EQ(b.change, AdmissionChange::earlier);
  ASSERT_TRUE(b.what_if);
  // Admitted as it was created, right after a.
  EXPECT_LT(*b.what_if - *unit_of(recorded, "a").recorded, kSec);
  EXPECT_FALSE(b.estimated);
}

TEST(WhatIfTest, LessQuotaAdmitsNone) {
  const auto r = ask(two_teams(), quota_cpu("team-a", "1"));
  EXPECT_EQ(r.summary, (replay::WhatIfSummary{0, 0, 0, 0, 2}));
  EXPECT_EQ(unit_of(r, "a").what_if, std::nullopt);
  const std::string text = replay::render_what_if_text(r);
  EXPECT_NE(text.find("NAMESPACE   NAME   QUEUE    RECORDED"), std::string::npos) << text;
  EXPECT_NE(text.find("earlier 0, later 0, unchanged 0, newly admitted 0, no longer admitted 2\n"), std::string::npos);
}

TEST(WhatIfTest, ANewlyAdmittedUnitRunsForTheMedianRunTimeOfItsQueue) {
  // team-b never ran anything: with 2 cpu, c runs to the end of the replay and d never fits.
  const auto alone = ask(two_teams(), quota_cpu("team-b", "2"));
  EXPECT_EQ(alone.summary, (replay::WhatIfSummary{0, 0, 2, 1, 0}));
  EXPECT_TRUE(unit_of(alone, "c").estimated);
  EXPECT_EQ(unit_of(alone, "d").what_if, std::nullopt);

  // c and d (4 cpu each) in team-a's queue, whose only recorded run (a's) took 29 s: with 4 cpu,
  // c is admitted when a succeeds, and d follows c after the median.
  Recording rec;
  rec.add(quota("team-a", "", {{"cpu", "2"}}));
  rec.add(queue("team-a"));
  rec.add(unit("a", "team-a", "2", 0, 100));
  rec.add(unit("c", "team-a", "4", 0, 102));
  rec.add(unit("d", "team-a", "4", 0, 103));
  rec.wait(kSec);
  rec.job("default/a", "Running");
  rec.wait(29 * kSec);
  rec.job("default/a", "Succeed");
  rec.wait(200 * kSec);
  const auto r = ask(rec, quota_cpu("team-a", "4"));
  const auto& c = unit_of(r, "c");
  const auto& d = unit_of(r, "d");
  ASSERT_TRUE(c.what_if && d.what_if);
  EXPECT_TRUE(c.estimated && d.estimated);
  EXPECT_EQ(c.change, AdmissionChange::newly_admitted);
  // a's run time: from its Running to its Succeed record (29 s and one round's records).
  const int64_t gap = *d.what_if - *c.what_if;
  EXPECT_GE(gap, 29 * kSec);
  EXPECT_LT(gap, 30 * kSec);
}

TEST(WhatIfTest, ALaterAdmissionShiftsTheRecordedRunAndWhatWaitsForIt) {
  // z (4 cpu, first in team-a's queue) never fits 2 cpu; a runs 29 s, then b (after its backoff).
  Recording rec;
  rec.add(quota("team-a", "", {{"cpu", "2"}}));
  rec.add(queue("team-a"));
  rec.add(unit("z", "team-a", "4", 5, 99));
  rec.add(unit("a", "team-a", "2", 0, 100));
  rec.add(unit("b", "team-a", "2", 0, 101));
  rec.wait(kSec);
  rec.job("default/a", "Running");
  rec.wait(29 * kSec);
  rec.job("default/a", "Succeed");
  rec.wait(300 * kSec);
  rec.add(queue("spare"));
  const auto recorded = ask(rec, {});
  ASSERT_EQ(unit_of(recorded, "z").recorded, std::nullopt);
  // With 4 cpu z runs first (for the queue's median, a's 29 s), then a and b.
  const auto r = ask(rec, quota_cpu("team-a", "4"));
  const auto& z = unit_of(r, "z");
  const auto& a = unit_of(r, "a");
  const auto& b = unit_of(r, "b");
  EXPECT_EQ(z.change, AdmissionChange::newly_admitted);
  EXPECT_TRUE(z.estimated);
  EXPECT_EQ(a.change, AdmissionChange::later);
  EXPECT_FALSE(a.estimated);
  ASSERT_TRUE(z.what_if && a.what_if && b.what_if)
      << replay::render_what_if_text(r) << replay::render_what_if_text(recorded);
  EXPECT_GE(*a.what_if - *z.what_if, 29 * kSec);
  EXPECT_LT(*a.what_if - *z.what_if, 30 * kSec);
  // b waits for z (its backoff decides when it is tried again), not for a's shifted run: 4 cpu
  // hold both.
  EXPECT_GE(*b.what_if, *a.what_if);
  EXPECT_LT(*b.what_if, *a.what_if + 29 * kSec);

  const std::string json = replay::render_what_if_json(r, {{"quota.team-a.max.cpu", "4"}});
  EXPECT_EQ(json.rfind("{\"changes\": {\"quota.team-a.max.cpu\": \"4\"}, \"units\": [{\"namespace\": \"default\", "
                       "\"name\": \"a\", \"uid\": \"uid-default-a\", \"queue\": \"team-a\", \"recordedAdmission\": \"",
                       0),
            0u)
      << json;
  EXPECT_NE(json.find("\"name\": \"z\", \"uid\": \"uid-default-z\", \"queue\": \"team-a\", \"recordedAdmission\": "
                      "null, \"whatIfAdmission\": \""),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"deltaSeconds\": null, \"estimated\": true}"), std::string::npos);
  EXPECT_NE(json.find("\"summary\": {\"earlier\": 1, \"later\": 1, \"unchanged\": 0, \"newlyAdmitted\": 1, "
                      "\"noLongerAdmitted\": 0}}\n"),
            std::string::npos)
      << json;
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
