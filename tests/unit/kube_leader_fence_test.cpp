// The writers' fence follows the Lease (behaviour.md §19): opened on acquiring until the attempt's
// start + renew deadline (by the monotonic clock), moved on by each renewal, closed at once by a
// loss, release() or stop(); with --leader-elect=false open for the whole reign.
#include <chrono>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/leader/leader_elector.hpp"
#include "tests/support/lease_api_fixture.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using namespace lease_fixture;

TEST(LeaderElector, opens_the_write_fence_until_renew_time_plus_renew_deadline_and_closes_it_when_leading_ends) {
  Fixture f;
  WriteFence fence;
  LeaderElectionOptions options = f.options(true);
  options.lease_duration = 1000ms;
  options.renew_deadline = 300ms;
  options.fence = &fence;
  const auto before = std::chrono::steady_clock::now();
  LeaderElector elector(*f.client, options, f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  const uint64_t reign = fence.reign();
  EXPECT_TRUE(fence.admits(reign).ok());
  EXPECT_GE(fence.deadline(), before + 300ms);
  EXPECT_LE(fence.deadline(), std::chrono::steady_clock::now() + 300ms);
  const auto first = fence.deadline();
  ASSERT_TRUE(eventually([&] { return fence.deadline() > first; })) << "each renewal moves it";
  EXPECT_EQ(fence.reign(), reign);

  // Renewals fail: the fence closes by itself at the last renewal + 300 ms, before the elector
  // has given up (it retries until 300 ms after its renew loop began).
  f.api.fail("PUT " + kLeasePath, 500);
  ASSERT_TRUE(eventually([&] { return !fence.admits(reign).ok(); }));
  EXPECT_GE(std::chrono::steady_clock::now(), first);
  ASSERT_TRUE(eventually([&] { return f.events.stopped == 1; }));
  EXPECT_NE(fence.reign(), reign) << "the loss ends the reign";
  EXPECT_EQ(fence.deadline(), WriteFence::Clock::time_point::min());
  elector.stop();
}

TEST(LeaderElector, release_and_stop_close_the_write_fence_at_once) {
  Fixture f;
  WriteFence fence;
  LeaderElectionOptions options = f.options();
  options.fence = &fence;
  LeaderElector elector(*f.client, options, f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  uint64_t reign = fence.reign();
  EXPECT_TRUE(fence.admits(reign).ok());
  elector.release();
  EXPECT_FALSE(fence.admits(reign).ok()) << "before release() returns";
  elector.resume();
  ASSERT_TRUE(eventually([&] { return f.events.started == 2; }));
  reign = fence.reign();
  EXPECT_TRUE(fence.admits(reign).ok());
  elector.stop();
  EXPECT_FALSE(fence.admits(reign).ok());

  Fixture g;
  WriteFence unfenced_by_lease;
  LeaderElectionOptions without_lease = g.options();
  without_lease.enabled = false;
  without_lease.fence = &unfenced_by_lease;
  LeaderElector leader(*g.client, without_lease, g.events.callbacks());
  leader.start();
  ASSERT_TRUE(eventually([&] { return g.events.started == 1; }));
  EXPECT_EQ(unfenced_by_lease.deadline(), WriteFence::Clock::time_point::max()) << "--leader-elect=false";
  leader.stop();
  EXPECT_FALSE(unfenced_by_lease.admits(unfenced_by_lease.reign() - 1).ok());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
