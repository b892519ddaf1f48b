// `koordq explain` (behaviour.md §24.2) over hand-built journals: the decisions come from the
// decision logic folded exactly as the router does it, and the story of one unit tells each
// record that touched it, its position while it waits, and the quota path of every attempt.
#include "replay/explain.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/story_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using namespace story;
using replay::Story;
using replay::StoryEntry;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

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

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
