// The replay library (replay/replay.hpp, export_journal.hpp): the state summary at a revision, the
// configuration taken from the journal's own config records, the verification of recorded rounds
// (a deliberately altered round is a divergence with its state difference; another decision-logic
// version is a mismatch), and exports read as journals (a broken chain is refused).
#include "replay/replay.hpp"

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "actors/wire/config_wire.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/record_apply.hpp"
#include "journal/export_line.hpp"
#include "journal/watch_record.hpp"
#include "replay/export_journal.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

constexpr char kUuid[] = "00000000-0000-4000-8000-0000000000bb";

std::unique_ptr<journal::CapnpRecordBody> config_body(const actors::ConfigFlags& flags,
                                                      uint32_t version = actors::kDecisionLogicVersion) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto config = body->record().initBody().initConfig();
  auto list = config.initFlags(static_cast<unsigned>(flags.size()));
  for (unsigned i = 0; i < flags.size(); ++i) {
    list[i].setName(flags[i].first);
    list[i].setValue(flags[i].second);
  }
  config.setDecisionLogicVersion(version);
  config.setJournalUuid(kUuid);
  return body;
}

// A journal written the way serve writes one: inputs, each followed by its round decided by the
// live state; a config record rebuilds the live state under its configuration first.
class Recording {
 public:
  explicit Recording(const actors::ConfigFlags& flags = {}, uint32_t version = actors::kDecisionLogicVersion) {
    config(flags, version);
  }

  void config(const actors::ConfigFlags& flags, uint32_t version = actors::kDecisionLogicVersion) {
    auto decision = actors::decision_config_from_flags(flags);
    if (!decision.ok()) throw std::runtime_error(decision.message());
    actors::Scheduler fresh(*decision);
    for (const auto& r : records) {
      if (!actors::apply_record(fresh, r).ok()) throw std::runtime_error("refold failed");
    }
    live = std::move(fresh);
    append(config_body(flags, version));
  }
  std::vector<actors::Decision> input(const schema::WatchedObject& o) {
    schema::WatchEvent event;
    event.type = schema::WatchEventType::kAdded;
    event.object = o;
    input_without_round(event);
    return round();
  }
  void input_without_round(const schema::WatchEvent& event) {
    append(journal::make_watch_body(event, schema::RawObjectMode::kOff));
  }
  // The round on the state so far; `alter` edits the decisions before they are recorded.
  std::vector<actors::Decision> round(const std::function<void(std::vector<actors::Decision>&)>& alter = {}) {
    const uint64_t basis = chain_.last_seq();
    auto decisions = live.decide();
    if (alter) alter(decisions);
    append(actors::make_round_body(basis, decisions));
    return decisions;
  }
  std::string export_text() const {
    std::string out;
    for (const auto& r : records) out += journal::render_export_line(r) + "\n";
    return out;
  }

  actors::Scheduler live;
  std::vector<journal::StoredRecord> records;
  int64_t time = 1000 * kSec;

 private:
  void append(std::unique_ptr<journal::CapnpRecordBody> body) {
    time += 10 * kMs;
    auto stored = chain_.append(*body, time);
    if (!actors::apply_record(live, stored).ok()) throw std::runtime_error("apply failed");
    records.push_back(std::move(stored));
  }
  RecordChain chain_{kUuid};
};

std::unique_ptr<replay::ExportJournal> load(const std::string& text) {
  std::istringstream in(text);
  std::optional<journal::ChainBreak> broken;
  auto loaded = replay::ExportJournal::load(in, broken);
  if (!loaded.ok()) throw std::runtime_error(loaded.message());
  return std::move(loaded).value();
}

// Two quotas, two queues, three units: two admitted, one too big to fit.
void populate(Recording& r) {
  r.input(quota("team-a", "", {{"cpu", "4"}}, 10));
  r.input(quota("team-b", "", {{"cpu", "1"}}, 20));
  r.input(queue("team-a"));
  r.input(queue("team-b"));
  r.input(unit("small", "team-a", "1", 0, 100));
  r.input(unit("medium", "team-a", "2", 0, 101));
  r.input(unit("big", "team-b", "2", 0, 102));
}

TEST(ReplayTest, SummaryCountsTheStateAtTheRevision) {
  Recording r;
  populate(r);
  auto exported = load(r.export_text());
  EXPECT_EQ(exported->uuid(), kUuid);
  const uint64_t last = r.records.back().seq();

  auto state = replay::replay_to(exported->reader(), UINT64_MAX);
  ASSERT_TRUE(state.ok()) << state.message();
  EXPECT_EQ(state->seq, last);
  EXPECT_EQ(state->time, r.records.back().time());
  const auto summary = replay::summarize(state->scheduler, kUuid, state->seq, state->time, state->seq);
  EXPECT_EQ(summary.queues, 2u);
  EXPECT_EQ(summary.quotas, 2u);
  EXPECT_EQ(summary.units, 3u);
  uint64_t phased = 0;
  for (const auto& [phase, n] : summary.phases) phased += n;
  EXPECT_EQ(phased, 3u);
  EXPECT_EQ(summary.phases.count("Enqueued"), 1u) << replay::render_summary_text(summary);

  const std::string text = replay::render_summary_text(summary);
  EXPECT_EQ(text.substr(0, text.find('\n')), std::string("journal ") + kUuid);
  EXPECT_NE(text.find("revision " + std::to_string(last) + " (1970-01-01T00:16:40."), std::string::npos) << text;
  EXPECT_NE(text.find("queues 2, quotas 2, units 3 ("), std::string::npos) << text;
  const std::string json = replay::render_summary_json(summary);
  EXPECT_EQ(json.rfind(std::string("{\"journal\": \"") + kUuid + "\", \"revision\": " + std::to_string(last), 0), 0u)
      << json;

  // Mid-way: only what had arrived by then (the two quotas and the first queue, with its round).
  auto mid = replay::replay_to(exported->reader(), 6);
  ASSERT_TRUE(mid.ok()) << mid.message();
  EXPECT_EQ(mid->seq, 6u);
  const auto early = replay::summarize(mid->scheduler, kUuid, mid->seq, mid->time, mid->seq);
  EXPECT_EQ(early.quotas, 2u);
  EXPECT_EQ(early.queues, 1u);
  EXPECT_EQ(early.units, 0u);
  EXPECT_EQ(replay::render_summary_text(early).substr(replay::render_summary_text(early).rfind("queues")),
            "queues 1, quotas 2, units 0 ()\n");
}

// Folding on from a state held at an earlier revision gives the state replay_to rebuilds, at every
// pair of revisions (the console folds on from the states it caches).
TEST(ReplayTest, FoldingOnFromAnEarlierStateEqualsReplayingTo) {
  Recording r;
  populate(r);
  auto exported = load(r.export_text());
  const uint64_t last = r.records.back().seq();
  for (uint64_t from = 1; from <= last; ++from) {
    auto earlier = replay::replay_to(exported->reader(), from);
    ASSERT_TRUE(earlier.ok()) << earlier.message();
    for (uint64_t to = from; to <= last; ++to) {
      auto on = replay::replay_on(exported->reader(), earlier->scheduler, earlier->seq, earlier->time, to);
      auto direct = replay::replay_to(exported->reader(), to);
      ASSERT_TRUE(on.ok() && direct.ok());
      EXPECT_EQ(on->seq, direct->seq);
      EXPECT_EQ(on->time, direct->time);
      EXPECT_EQ(replay::state_differences(on->scheduler, direct->scheduler), std::vector<std::string>{})
          << "from " << from << " to " << to;
    }
  }
}

TEST(ReplayTest, VerifyPassesOnTheRecordedRounds) {
  Recording r;
  populate(r);
  auto exported = load(r.export_text());
  auto verified = replay::verify_rounds(exported->reader(), UINT64_MAX);
  ASSERT_TRUE(verified.ok()) << verified.message();
  EXPECT_TRUE(verified->ok()) << replay::render_verify_text(*verified);
  uint64_t rounds = 0;
  for (const auto& rec : r.records) rounds += rec.kind() == journal::RecordKind::kRound;
  EXPECT_EQ(verified->rounds, rounds);
  EXPECT_EQ(verified->records, r.records.size());
  EXPECT_GT(verified->decisions, 0u);
  EXPECT_EQ(replay::render_verify_text(*verified), "verified " + std::to_string(verified->decisions) +
                                                       " decisions in " + std::to_string(rounds) + " rounds, " +
                                                       std::to_string(r.records.size()) + " records, 0 snapshots\n");
}

TEST(ReplayTest, AnAlteredRoundIsADivergenceWithItsStateDifference) {
  // The unit's arrival, then a recorded round from which its admission was removed.
  Recording tampered;
  tampered.input(quota("team-a", "", {{"cpu", "4"}}, 10));
  tampered.input(queue("team-a"));
  schema::WatchEvent small;
  small.type = schema::WatchEventType::kAdded;
  small.object = unit("small", "team-a", "1", 0, 100);
  tampered.input_without_round(small);
  bool dropped_admit = false;
  tampered.round([&](std::vector<actors::Decision>& ds) {
    std::erase_if(ds, [&](const actors::Decision& d) {
      const bool admit = d.kind == DecisionKind::kAdmit;
      dropped_admit |= admit;
      return admit;
    });
  });
  ASSERT_TRUE(dropped_admit);
  const uint64_t bad_round = tampered.records.back().seq();
  tampered.input(unit("later", "team-a", "1", 0, 101));

  auto bad = load(tampered.export_text());
  auto verified = replay::verify_rounds(bad->reader(), UINT64_MAX);
  ASSERT_TRUE(verified.ok()) << verified.message();
  ASSERT_TRUE(verified->divergence.has_value()) << replay::render_verify_text(*verified);
  const auto& d = *verified->divergence;
  EXPECT_EQ(d.seq, bad_round);
  EXPECT_EQ(d.basis, bad_round - 1);
  EXPECT_EQ(d.replayed.size(), d.recorded.size() + 1);
  EXPECT_FALSE(d.state_diff.empty());
  bool names_unit = false;
  for (const auto& line : d.state_diff) names_unit |= line.rfind("unit default/small", 0) == 0;
  EXPECT_TRUE(names_unit) << replay::describe_differences(d.state_diff);
  EXPECT_EQ(verified->records, bad_round);

  const std::string text = replay::render_verify_text(*verified);
  EXPECT_EQ(
      text.rfind("divergence at seq " + std::to_string(bad_round) + " (basis " + std::to_string(bad_round - 1) + ")\n",
                 0),
      0u)
      << text;
  EXPECT_NE(text.find("admit default/small"), std::string::npos) << text;
  const std::string json = replay::render_verify_json(*verified);
  EXPECT_NE(json.find("\"divergence\": {\"seq\": " + std::to_string(bad_round)), std::string::npos) << json;
  EXPECT_NE(json.find("\"unit default/small: phase\""), std::string::npos) << json;
}

TEST(ReplayTest, AnotherDecisionLogicVersionIsAMismatch) {
  Recording r({}, actors::kDecisionLogicVersion - 1);
  populate(r);
  auto exported = load(r.export_text());
  auto verified = replay::verify_rounds(exported->reader(), UINT64_MAX);
  ASSERT_TRUE(verified.ok()) << verified.message();
  ASSERT_TRUE(verified->version_mismatch.has_value());
  EXPECT_EQ(verified->version_mismatch->journal, actors::kDecisionLogicVersion - 1);
  EXPECT_EQ(replay::render_verify_text(*verified),
            "decision-logic version " + std::to_string(actors::kDecisionLogicVersion - 1) +
                " of the journal differs from " + std::to_string(actors::kDecisionLogicVersion) +
                " of this binary: not verified\n");
  EXPECT_NE(replay::render_verify_json(*verified).find("\"versionMismatch\": {\"journal\": "), std::string::npos);
}

TEST(ReplayTest, TheConfigRecordsOfTheJournalDecide) {
  // Under --oversellrate 2 a 2-cpu unit fits a 1-cpu quota; the journal switches to it half-way.
  Recording r;
  r.input(quota("team-b", "", {{"cpu", "1"}}, 20));
  r.input(queue("team-b"));
  r.config({{"oversellrate", "2"}});
  r.round();
  const auto admitted = r.input(unit("big", "team-b", "2", 0, 102));
  ASSERT_EQ(of_kind(admitted, DecisionKind::kAdmit).size(), 1u);

  auto exported = load(r.export_text());
  auto verified = replay::verify_rounds(exported->reader(), UINT64_MAX);
  ASSERT_TRUE(verified.ok()) << verified.message();
  EXPECT_TRUE(verified->ok()) << replay::render_verify_text(*verified);
  auto state = replay::replay_to(exported->reader(), UINT64_MAX);
  ASSERT_TRUE(state.ok()) << state.message();
  EXPECT_EQ(state->scheduler.config().oversell_rate_ppm, 2'000'000);
}

TEST(ReplayTest, AnExportWithABrokenChainIsRefused) {
  Recording r;
  populate(r);
  std::string text = r.export_text();
  const auto at = text.find("\"team-b\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 8, "\"team-c\"");
  std::istringstream in(text);
  std::optional<journal::ChainBreak> broken;
  auto loaded = replay::ExportJournal::load(in, broken);
  EXPECT_FALSE(loaded.ok());
  ASSERT_TRUE(broken.has_value());
  EXPECT_GT(broken->seq, 1u);
}

TEST(ReplayTest, DecisionFlagsMapToTheDecisionConfig) {
  auto c = actors::decision_config_from_flags({{"oversellrate", "1.5"},
                                               {"pod-initial-backoff-seconds", "2"},
                                               {"pod-max-backoff-seconds", "30"},
                                               {"schedule-suspend-time-ms", "5"},
                                               {"default-reclaim-protect-time", "1m"},
                                               {"queue-namespace", "queues"},
                                               {"queue-items-max", "7"},
                                               {"qps", "50"}});
  ASSERT_TRUE(c.ok()) << c.message();
  EXPECT_EQ(c->oversell_rate_ppm, 1'500'000);
  EXPECT_EQ(c->initial_backoff_nanos, 2 * kSec);
  EXPECT_EQ(c->max_backoff_nanos, 30 * kSec);
  EXPECT_EQ(c->schedule_suspend_nanos, 5 * kMs);
  EXPECT_EQ(c->reclaim_protect_nanos, 60 * kSec);
  EXPECT_EQ(c->queue_namespace, "queues");
  EXPECT_EQ(c->queue_items_max, 7);
  EXPECT_EQ(*actors::decision_config_from_flags({}), actors::DecisionConfig{});
  EXPECT_FALSE(actors::decision_config_from_flags({{"pod-max-backoff-seconds", "x"}}).ok());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
