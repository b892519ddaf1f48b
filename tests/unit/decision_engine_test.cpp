// The decision actors (actors/runtime): the router folds records in seq order, a round spans
// every quota tree in tree-name order, quota actors hold their quota's accounting, and actors
// follow the objects they stand for. Each test runs with 1 and 4 actor threads, and without the
// actors (parameter 0: EngineOptions::on_calling_thread), which must behave alike.
#include "actors/runtime/decision_engine.hpp"

#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>

#include "actors/runtime/messages.hpp"
#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "actors/wire/record_apply.hpp"
#include "journal/watch_record.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

constexpr int64_t kT0 = 1'776'000'000 * kSec;

class DecisionEngineTest : public ::testing::TestWithParam<size_t> {
 protected:
  static actors::runtime::EngineOptions options() {
    actors::runtime::EngineOptions o;
    o.threads = GetParam();
    o.on_calling_thread = GetParam() == 0;
    return o;
  }

  journal::StoredRecord watch(schema::WatchedObject object,
                              schema::WatchEventType type = schema::WatchEventType::kAdded) {
    schema::WatchEvent event;
    event.type = type;
    event.object = std::move(object);
    return chain.append(*journal::make_watch_body(event, schema::RawObjectMode::kOff), now);
  }

  // Two trees ("a-tree", "b-tree"), each with a queue that has one unit waiting.
  std::vector<journal::StoredRecord> two_trees() {
    std::vector<journal::StoredRecord> out;
    out.push_back(watch(quota("b-tree", "", {{"cpu", "4"}})));
    out.push_back(watch(quota("a-tree", "", {{"cpu", "4"}})));
    out.push_back(watch(quota("a-leaf", "a-tree", {{"cpu", "2"}})));
    out.push_back(watch(queue("b-tree")));
    out.push_back(watch(queue("a-leaf")));
    out.push_back(watch(unit("job-b", "b-tree", "1", 0, kT0)));
    out.push_back(watch(unit("job-a", "a-leaf", "1", 0, kT0)));
    return out;
  }

  RecordChain chain;
  int64_t now = kT0;
};

std::vector<std::string> admitted_units(const std::vector<actors::Decision>& decisions) {
  std::vector<std::string> out;
  for (const auto& d : decisions) {
    if (d.kind == actors::DecisionKind::kAdmit) out.push_back(std::get<actors::UnitRef>(d.target).name);
  }
  return out;
}

TEST_P(DecisionEngineTest, a_round_decides_every_tree_in_tree_name_order_like_the_plain_scheduler) {
  actors::Scheduler plain;
  actors::runtime::DecisionEngine engine(options(), actors::Scheduler());
  auto records = two_trees();
  for (const auto& r : records) ASSERT_TRUE(actors::apply_record(plain, r).ok());
  ASSERT_TRUE(engine.apply(std::move(records)).ok());
  EXPECT_EQ(engine.applied_seq(), 7u);

  const auto decided = engine.decide();
  ASSERT_TRUE(decided.ok()) << decided.message();
  EXPECT_EQ(*decided, plain.decide());
  EXPECT_EQ(admitted_units(*decided), (std::vector<std::string>{"job-a", "job-b"}));
}

TEST_P(DecisionEngineTest, quota_actors_hold_the_accounting_after_the_round_is_applied) {
  actors::runtime::DecisionEngine engine(options(), actors::Scheduler());
  ASSERT_TRUE(engine.apply(two_trees()).ok());
  const auto decided = engine.decide();
  ASSERT_TRUE(decided.ok());
  std::vector<journal::StoredRecord> round;
  round.push_back(chain.append(*actors::make_round_body(chain.last_seq(), *decided), now));
  ASSERT_TRUE(engine.apply(std::move(round)).ok());

  const auto leaf = engine.quota("a-leaf");
  ASSERT_TRUE(leaf.has_value());
  EXPECT_EQ(leaf->seq, 8u);
  EXPECT_EQ(leaf->tree, "a-tree");
  EXPECT_EQ(leaf->usage.used.at("cpu"), 1000);
  const auto top = engine.quota("a-tree");
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ(top->usage.children_used.at("cpu"), 1000);
  EXPECT_FALSE(engine.quota("no-such-quota").has_value());
}

TEST_P(DecisionEngineTest, a_deleted_quota_loses_its_actor) {
  actors::runtime::DecisionEngine engine(options(), actors::Scheduler());
  ASSERT_TRUE(engine.apply(two_trees()).ok());
  ASSERT_TRUE(engine.quota("b-tree").has_value());
  std::vector<journal::StoredRecord> deletion;
  deletion.push_back(watch(quota("b-tree", "", {{"cpu", "4"}}), schema::WatchEventType::kDeleted));
  ASSERT_TRUE(engine.apply(std::move(deletion)).ok());
  EXPECT_FALSE(engine.quota("b-tree").has_value());
}

TEST_P(DecisionEngineTest, records_already_folded_are_skipped) {
  actors::runtime::DecisionEngine engine(options(), actors::Scheduler());
  auto records = two_trees();
  std::vector<journal::StoredRecord> again;
  for (const auto& r : records) again.push_back(std::move(journal::StoredRecord::parse(r.stored_value())).value());
  ASSERT_TRUE(engine.apply(std::move(records)).ok());
  const auto first = engine.decide();
  ASSERT_TRUE(engine.apply(std::move(again)).ok());
  EXPECT_EQ(engine.applied_seq(), 7u);
  const auto second = engine.decide();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, *second);
}

TEST_P(DecisionEngineTest, read_state_sees_the_state_at_the_applied_seq) {
  actors::runtime::DecisionEngine engine(options(), actors::Scheduler());
  ASSERT_TRUE(engine.apply(two_trees()).ok());
  size_t units = 0;
  uint64_t seq = 0;
  engine.read_state([&](const actors::Scheduler& s, uint64_t applied) {
    units = s.units().size();
    seq = applied;
  });
  EXPECT_EQ(units, 2u);
  EXPECT_EQ(seq, 7u);
}

// The API servers read the state from their own threads while the serve loop applies and decides.
TEST_P(DecisionEngineTest, readers_on_other_threads_run_alongside_apply_and_decide) {
  actors::runtime::DecisionEngine engine(options(), actors::Scheduler());
  std::atomic<bool> done{false};
  std::atomic<int> reads{0};
  std::vector<std::thread> readers;
  for (int r = 0; r < 2; ++r) {
    readers.emplace_back([&] {
      while (!done.load()) {
        engine.read_state([&](const actors::Scheduler&, uint64_t) { reads.fetch_add(1); });
        engine.quota("a-tree");
      }
    });
  }
  ASSERT_TRUE(engine.apply(two_trees()).ok());
  // 200 rounds at least, and on until the readers have read: rounds decided on the calling thread
  // can all be done before a reader thread is first scheduled.
  uint64_t rounds = 0;
  for (; rounds < 200 || (reads.load() < 2 && rounds < 200'000); ++rounds) {
    ASSERT_TRUE(engine.decide().ok());
    engine.next_deadline();
    std::vector<journal::StoredRecord> tick;
    now += kMs;
    tick.push_back(chain.append(*actors::make_tick_body(), now));
    ASSERT_TRUE(engine.apply(std::move(tick)).ok());
  }
  done.store(true);
  for (auto& t : readers) t.join();
  EXPECT_GE(reads.load(), 2);
  EXPECT_EQ(engine.applied_seq(), 7 + rounds);
}

TEST_P(DecisionEngineTest, the_next_deadline_follows_the_applied_state) {
  actors::runtime::DecisionEngine engine(options(), actors::Scheduler());
  EXPECT_FALSE(engine.next_deadline().has_value());
  std::vector<journal::StoredRecord> records;
  records.push_back(watch(unit("orphan", "missing-quota", "1", 0, kT0)));
  ASSERT_TRUE(engine.apply(std::move(records)).ok());
  // QueueNotFound is reported once the unit has stayed unmapped for 10 s (behaviour.md §4).
  ASSERT_TRUE(engine.next_deadline().has_value());
  EXPECT_EQ(*engine.next_deadline(), kT0 + 10 * kSec);
}

// job_scheduling_algorithm_latency observes one sample per attempt (§15.2): the quota check of
// each attempt, not each queue's turn in every round.
TEST_P(DecisionEngineTest, the_queue_actors_time_one_quota_check_per_attempt) {
  std::mutex mu;
  std::multiset<std::string> timed;
  actors::runtime::EngineOptions timed_options = options();
  timed_options.observe_latency = [&](const std::string& q, double seconds) {
    std::lock_guard lock(mu);
    if (seconds >= 0) timed.insert(q);
  };
  actors::runtime::DecisionEngine engine(timed_options, actors::Scheduler());
  ASSERT_TRUE(engine.apply(two_trees()).ok());
  auto first = engine.decide();
  ASSERT_TRUE(first.ok());
  {
    std::lock_guard lock(mu);
    EXPECT_EQ(timed, (std::multiset<std::string>{"a-leaf", "b-tree"}));  // one attempt each
  }
  // The round applied: nothing is left to attempt, so further rounds time nothing.
  std::vector<journal::StoredRecord> round;
  round.push_back(chain.append(*actors::make_round_body(chain.last_seq(), *first), now));
  ASSERT_TRUE(engine.apply(std::move(round)).ok());
  for (int i = 0; i < 3; ++i) {
    now += kSec;
    std::vector<journal::StoredRecord> tick;
    tick.push_back(chain.append(*actors::make_tick_body(), now));
    ASSERT_TRUE(engine.apply(std::move(tick)).ok());
    ASSERT_TRUE(engine.decide().ok());
  }
  uint64_t attempts = 0;
  engine.read_state([&](const actors::Scheduler& s, uint64_t) {
    for (const auto& [key, n] : s.metrics().attempts) attempts += n;
  });
  std::lock_guard lock(mu);
  EXPECT_EQ(timed.size(), attempts);
  EXPECT_EQ(timed.size(), 2u);
}

INSTANTIATE_TEST_SUITE_P(Threads, DecisionEngineTest, ::testing::Values(size_t{0}, size_t{1}, size_t{4}));

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
