// The read side (actors/runtime/read_side.hpp): after each applied batch the state is published
// whole, a published state never changes while it is held, and neither a reader nor a held state
// makes the router wait.
#include "actors/runtime/read_side.hpp"

#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "actors/runtime/decision_engine.hpp"
#include "actors/wire/record_apply.hpp"
#include "journal/watch_record.hpp"
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

TEST_F(ReadSideTest, each_applied_batch_is_published_whole_and_equal_to_the_fold) {
  actors::runtime::DecisionEngine engine({1, {}, true}, actors::Scheduler());
  EXPECT_EQ(engine.published()->revision, 0u);
  ASSERT_TRUE(engine.apply(batch({quota("root", "", {{"cpu", "8"}}), queue("root")})).ok());
  ASSERT_TRUE(engine.apply(batch({unit("a", "root", "1", 0, kT0), unit("b", "root", "1", 0, kT0)})).ok());
  ASSERT_TRUE(engine.wait_published(4));
  const auto published = engine.published();
  EXPECT_EQ(published->revision, 4u);
  const actors::Scheduler& expected = folded;
  EXPECT_EQ(published->state->units().size(), 2u);
  EXPECT_EQ(published->state->now(), expected.now());
  EXPECT_EQ(published->state->decide(), expected.decide());
}

TEST_F(ReadSideTest, a_held_state_stays_as_it_was_and_the_router_goes_on_without_it) {
  actors::runtime::DecisionEngine engine({1, {}, true}, actors::Scheduler());
  ASSERT_TRUE(engine.apply(batch({quota("root", "", {{"cpu", "8"}}), queue("root")})).ok());
  ASSERT_TRUE(engine.wait_published(2));
  auto held = engine.published();  // a reader that does not let go
  const int64_t held_now = held->state->now();

  // Both batches return from the router although the read side must wait for `held` to publish
  // the second one: the router never waits for a reader.
  ASSERT_TRUE(engine.apply(batch({unit("a", "root", "1", 0, kT0)})).ok());
  ASSERT_TRUE(engine.wait_published(3));
  ASSERT_TRUE(engine.apply(batch({unit("b", "root", "1", 0, kT0)})).ok());
  EXPECT_EQ(engine.applied_seq(), 4u);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(engine.published()->revision, 3u) << "the replica still held cannot take the next batch";
  EXPECT_EQ(held->revision, 2u);
  EXPECT_EQ(held->state->units().size(), 0u);
  EXPECT_EQ(held->state->now(), held_now);

  held.reset();  // the reader lets go
  ASSERT_TRUE(engine.wait_published(4));
  EXPECT_EQ(engine.published()->state->units().size(), 2u);
}

TEST_F(ReadSideTest, published_states_are_read_while_the_router_is_busy) {
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
  const bool answered = read.wait_for(20s) == std::future_status::ready;
  release.set_value();
  blocker.join();
  ASSERT_TRUE(answered) << "a published read waited for the router";
  EXPECT_EQ(read.get(), 2u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
