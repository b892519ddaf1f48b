// The clock (design.md §3, Time): the tick rule as a table, and the clock actor's coalescing.
#include "actors/runtime/clock.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>

#include "actors/runtime/clock_actor.hpp"
#include "actors/runtime/decision_engine.hpp"
#include "actors/runtime/messages.hpp"

namespace koordq::actors::runtime {
namespace KOORDQ_TEST_LOCAL {

constexpr int64_t kMs = 1'000'000;

TEST(TickPolicy, the_tick_rule) {
  const TickPolicy p{10 * kMs};
  struct Row {
    const char* what;
    std::optional<int64_t> deadline;
    int64_t last_append;
    std::optional<int64_t> last_tick;
    std::optional<int64_t> next;
  };
  const Row rows[] = {
      {"no deadline, no tick", std::nullopt, 0, std::nullopt, std::nullopt},
      {"a deadline ticks at the deadline", 100 * kMs, 50 * kMs, std::nullopt, 100 * kMs},
      {"a record appended at the deadline made it stale", 100 * kMs, 100 * kMs, std::nullopt, std::nullopt},
      {"a record appended after the deadline made it stale", 100 * kMs, 120 * kMs, std::nullopt, std::nullopt},
      {"the min interval after the last tick holds it back", 100 * kMs, 50 * kMs, 95 * kMs, 105 * kMs},
      {"a tick long ago does not", 100 * kMs, 50 * kMs, 20 * kMs, 100 * kMs},
  };
  for (const auto& r : rows) {
    EXPECT_EQ(p.next_tick(r.deadline, r.last_append, r.last_tick), r.next) << r.what;
    if (r.next) {
      EXPECT_FALSE(p.tick_due(*r.next - 1, r.deadline, r.last_append, r.last_tick)) << r.what;
      EXPECT_TRUE(p.tick_due(*r.next, r.deadline, r.last_append, r.last_tick)) << r.what;
    } else {
      EXPECT_FALSE(p.tick_due(INT64_MAX, r.deadline, r.last_append, r.last_tick)) << r.what;
    }
  }
}

int64_t wall_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class ClockActorTest : public ::testing::Test {
 protected:
  ClockActorTest() : system(config), self(system) {
    clock = system.spawn(clock_actor, TickPolicy{5 * kMs}, ClockHooks{wall_ns, [this](int64_t t) {
                                                                        std::lock_guard lock(mu);
                                                                        ticks.push_back(t);
                                                                        cv.notify_all();
                                                                      }});
  }
  ~ClockActorTest() override { self->send_exit(clock, caf::exit_reason::user_shutdown); }

  bool wait_for_ticks(size_t n, std::chrono::milliseconds limit) {
    std::unique_lock lock(mu);
    return cv.wait_for(lock, limit, [&] { return ticks.size() >= n; });
  }

  size_t tick_count() {
    std::lock_guard lock(mu);
    return ticks.size();
  }

  caf::actor_system_config config;
  caf::actor_system system;
  caf::scoped_actor self;
  caf::actor clock;
  std::mutex mu;
  std::condition_variable cv;
  std::vector<int64_t> ticks;
};

TEST_F(ClockActorTest, a_passed_deadline_gives_one_tick_not_before_it) {
  const int64_t deadline = wall_ns() + 20 * kMs;
  self->send(clock, arm_atom::value, true, deadline, wall_ns());
  ASSERT_TRUE(wait_for_ticks(1, std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::lock_guard lock(mu);
  ASSERT_EQ(ticks.size(), 1u);  // no re-arming after the tick: the next round arms again
  EXPECT_GE(ticks[0], deadline);
}

TEST_F(ClockActorTest, re_arming_coalesces_the_pending_timer) {
  const int64_t now = wall_ns();
  for (int i = 0; i < 20; ++i) self->send(clock, arm_atom::value, true, now + (30 + i) * kMs, now);
  ASSERT_TRUE(wait_for_ticks(1, std::chrono::seconds(10)));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  std::lock_guard lock(mu);
  EXPECT_EQ(ticks.size(), 1u);
  EXPECT_GE(ticks[0], now + 49 * kMs);  // the last arming wins
}

TEST_F(ClockActorTest, no_deadline_no_tick_and_an_append_after_the_deadline_cancels_it) {
  const int64_t now = wall_ns();
  self->send(clock, arm_atom::value, false, int64_t{0}, now);
  self->send(clock, arm_atom::value, true, now + 30 * kMs, now);
  self->send(clock, appended_atom::value, now + 30 * kMs);  // a record the deadline's round will see
  std::this_thread::sleep_for(std::chrono::milliseconds(120));
  EXPECT_EQ(tick_count(), 0u);
}

TEST_F(ClockActorTest, ticks_are_at_least_the_min_interval_apart) {
  self->send(clock, arm_atom::value, true, wall_ns(), int64_t{0});
  ASSERT_TRUE(wait_for_ticks(1, std::chrono::seconds(10)));
  int64_t first = 0;
  {
    std::lock_guard lock(mu);
    first = ticks[0];
  }
  self->send(clock, arm_atom::value, true, first + 1, first);  // due at once, but the interval holds it
  ASSERT_TRUE(wait_for_ticks(2, std::chrono::seconds(10)));
  std::lock_guard lock(mu);
  EXPECT_GE(ticks[1], ticks[0] + 5 * kMs);
}

// The handle the cluster serve loop drives: the clock actor lives in the engine's actor system.
TEST(Clock, an_engines_clock_ticks_once_for_a_passed_deadline_and_not_once_disarmed) {
  EngineOptions options;
  options.threads = 1;
  DecisionEngine engine(options, Scheduler{});
  std::mutex mu;
  std::condition_variable cv;
  std::vector<int64_t> ticks;
  Clock clock(engine, TickPolicy{5 * kMs}, ClockHooks{wall_ns, [&](int64_t t) {
                                                        std::lock_guard lock(mu);
                                                        ticks.push_back(t);
                                                        cv.notify_all();
                                                      }});
  const int64_t deadline = wall_ns() + 20 * kMs;
  clock.arm(deadline, wall_ns());
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, std::chrono::seconds(10), [&] { return !ticks.empty(); }));
    EXPECT_GE(ticks[0], deadline);
  }
  clock.arm(wall_ns() + 20 * kMs, wall_ns());
  clock.arm(std::nullopt, wall_ns());  // deciding stopped: the pending timer is dropped
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  std::lock_guard lock(mu);
  EXPECT_EQ(ticks.size(), 1u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors::runtime
