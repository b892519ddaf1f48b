// The read side (actors/runtime/read_side.hpp): after each applied batch its pages are published,
// equal to the pages of a plain fold; a publication never changes while it is held, pages a batch
// did not reach are shared with the previous publication, and neither a reader nor a held
// publication makes the router wait.
#include "actors/runtime/read_side.hpp"

#include <future>
#include <thread>
#include <utility>

#include <gtest/gtest.h>

#include "actors/runtime/decision_engine.hpp"
#include "actors/wire/record_apply.hpp"
#include "journal/watch_record.hpp"
#include "replay/state_diff.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using namespace std::chrono_literals;
constexpr int64_t kT0 = 1'776'000'000 * kSec;

class ReadSideTest : public ::testing::Test {
 protected:
  journal::StoredRecord watch(schema::WatchedObject object) {
    schema::WatchEvent event;
    event.type = schema::WatchEventType::kAdded;
    event.object = std::move(object);
    return chain.append(*journal::make_watch_body(event, schema::RawObjectMode::kOff), now += kSec);
  }
  std::vector<journal::StoredRecord> batch(std::vector<schema::WatchedObject> objects) {
    std::vector<journal::StoredRecord> out;
    for (auto& o : objects) {
      out.push_back(watch(std::move(o)));
      EXPECT_TRUE(actors::apply_record(folded, out.back()).ok());
    }
    return out;
  }

  RecordChain chain;
  int64_t now = kT0;
  actors::Scheduler folded;  // a plain fold of every record appended so far
};

void expect_same_pages(const actors::pages::ReadPages& published, const actors::pages::ReadPages& expected) {
  EXPECT_EQ(published.revision, expected.revision);
  ASSERT_EQ(published.queues->size(), expected.queues->size());
  for (const auto& [label, page] : *expected.queues) {
    ASSERT_TRUE(published.queues->count(label)) << label;
    EXPECT_TRUE(*published.queues->at(label) == *page) << label;
  }
  ASSERT_EQ(published.quotas->size(), expected.quotas->size());
  for (const auto& [name, account] : *expected.quotas) {
    ASSERT_TRUE(published.quotas->count(name)) << name;
    EXPECT_TRUE(*published.quotas->at(name) == *account) << name;
  }
  ASSERT_EQ(published.namespaces->size(), expected.namespaces->size());
  EXPECT_TRUE(*published.metrics == *expected.metrics);
}

TEST_F(ReadSideTest, each_applied_batch_is_published_as_the_pages_of_the_fold) {
  actors::runtime::DecisionEngine engine({1, {}, true}, actors::Scheduler());
  EXPECT_EQ(engine.published()->revision, 0u);
  ASSERT_TRUE(engine.apply(batch({quota("root", "", {{"cpu", "8"}}), queue("root")})).ok());
  ASSERT_TRUE(engine.apply(batch({unit("a", "root", "1", 0, kT0), unit("b", "root", "1", 0, kT0)})).ok());
  ASSERT_TRUE(engine.wait_published(4));
  const auto published = engine.published();
  ASSERT_EQ(published->revision, 4u);
  expect_same_pages(*published, actors::pages::build_read_pages(folded, 4));
  EXPECT_EQ(published->queues->at("root")->units.size(), 2u);
  EXPECT_EQ(published->namespaces->at("default")->count, 2);
}

TEST_F(ReadSideTest, a_held_publication_stays_as_it_was_and_untouched_pages_are_shared) {
  actors::runtime::DecisionEngine engine({1, {}, true}, actors::Scheduler());
  ASSERT_TRUE(
      engine.apply(batch({quota("a", "", {{"cpu", "8"}}), queue("a"), quota("b", "", {{"cpu", "8"}}), queue("b")}))
          .ok());
  ASSERT_TRUE(engine.wait_published(4));
  auto held = engine.published();  // a reader that does not let go

  // Neither the router nor the read side waits for `held`.
  ASSERT_TRUE(engine.apply(batch({unit("x", "a", "1", 0, kT0)})).ok());
  ASSERT_TRUE(engine.apply(batch({unit("y", "a", "1", 0, kT0)})).ok());
  ASSERT_TRUE(engine.wait_published(6));
  const auto latest = engine.published();
  EXPECT_EQ(held->revision, 4u);
  EXPECT_TRUE(held->queues->at("a")->units.empty());
  EXPECT_EQ(latest->queues->at("a")->units.size(), 2u);
  // Quota tree "b" was not reached by the unit batches: its pages are the very same objects.
  EXPECT_EQ(latest->queues->at("b").get(), held->queues->at("b").get());
  EXPECT_EQ(latest->quotas->at("b").get(), held->quotas->at("b").get());
  EXPECT_NE(latest->queues->at("a").get(), held->queues->at("a").get());
  expect_same_pages(*latest, actors::pages::build_read_pages(folded, 6));
}

TEST_F(ReadSideTest, the_whole_state_is_read_at_the_seq_it_is_folded_up_to) {
  actors::runtime::DecisionEngine engine({1, {}, true}, actors::Scheduler());
  ASSERT_TRUE(
      engine.apply(batch({quota("root", "", {{"cpu", "8"}}), queue("root"), unit("a", "root", "1", 0, kT0)})).ok());
  ASSERT_TRUE(engine.wait_published(3));
  uint64_t revision = 0;
  size_t units = 0;
  ASSERT_TRUE(engine.read_published_state([&](const actors::Scheduler& s, uint64_t r) {
    revision = r;
    units = s.units().size();
  }));
  EXPECT_EQ(revision, 3u);
  EXPECT_EQ(units, 1u);
}

TEST_F(ReadSideTest, published_pages_are_read_while_the_router_is_busy) {
  actors::runtime::DecisionEngine engine({1, {}, true}, actors::Scheduler());
  ASSERT_TRUE(engine.apply(batch({quota("root", "", {{"cpu", "8"}}), queue("root")})).ok());
  ASSERT_TRUE(engine.wait_published(2));
  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
  std::thread blocker([&] {
    engine.read_state([&](const actors::Scheduler&, uint64_t) {
      entered.set_value();
      released.wait();
    });
  });
  entered.get_future().wait();  // the router is inside that read and takes no other message
  auto read = std::async(std::launch::async, [&] { return engine.published()->revision; });
  auto whole = std::async(std::launch::async, [&] {
    uint64_t revision = 0;
    engine.read_published_state([&](const actors::Scheduler&, uint64_t r) { revision = r; });
    return revision;
  });
  const bool answered = read.wait_for(20s) == std::future_status::ready;
  const bool whole_answered = whole.wait_for(20s) == std::future_status::ready;
  release.set_value();
  blocker.join();
  ASSERT_TRUE(answered) << "a read of the pages waited for the router";
  ASSERT_TRUE(whole_answered) << "a read of the whole state waited for the router";
  EXPECT_EQ(read.get(), 2u);
  EXPECT_EQ(whole.get(), 2u);
}

// A snapshot is encoded this way (JournalUpkeep::after_cycle): on the read side's replica at the
// seq the router had applied, while the router goes on applying.
TEST_F(ReadSideTest, a_later_task_reads_the_replica_at_the_applied_seq_and_the_router_does_not_wait_for_it) {
  // What the task reads outlives the engine; the task is released on every way out before the
  // engine goes (its destructor joins the read side's thread, which runs the task).
  std::promise<std::pair<uint64_t, bool>> seen;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  actors::Scheduler at_three;
  actors::runtime::DecisionEngine engine({1, {}, true}, actors::Scheduler());
  struct Release {
    std::promise<void>& release;
    bool done = false;
    void now() {
      if (!std::exchange(done, true)) release.set_value();
    }
    ~Release() { now(); }
  } release_on_exit{release};
  ASSERT_TRUE(
      engine.apply(batch({quota("root", "", {{"cpu", "8"}}), queue("root"), unit("a", "root", "1", 0, kT0)})).ok());
  at_three = folded;
  ASSERT_TRUE(engine.read_published_later([&](const actors::Scheduler& s, uint64_t revision) {
    seen.set_value({revision, replay::state_differences(s, at_three).empty()});
    released.wait();
  }));
  auto task = seen.get_future();
  ASSERT_EQ(task.wait_for(20s), std::future_status::ready) << "the task did not run";
  const auto [revision, same] = task.get();
  EXPECT_EQ(revision, 3u);
  EXPECT_TRUE(same) << "the replica differs from the fold at its revision";
  // The task still holds the read side's thread: the router applies and reads on meanwhile.
  auto applied = std::async(std::launch::async, [&] { return engine.apply(batch({unit("b", "root", "1", 0, kT0)})); });
  const bool answered = applied.wait_for(20s) == std::future_status::ready;
  release_on_exit.now();
  ASSERT_TRUE(answered) << "the router waited for a task on the read side";
  EXPECT_TRUE(applied.get().ok());
  EXPECT_EQ(engine.applied_seq(), 4u);
  ASSERT_TRUE(engine.wait_published(4));
}

// Without a read side the caller is told to do the work itself.
TEST_F(ReadSideTest, an_engine_without_a_read_side_runs_no_later_task) {
  actors::runtime::DecisionEngine engine({1, {}, false}, actors::Scheduler());
  EXPECT_FALSE(engine.read_published_later([](const actors::Scheduler&, uint64_t) {}));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
