// The elector's guard on Koord-Queue's own Lease (behaviour.md §19): a held legacy Lease blocks the
// campaign (logged once a minute) and a renewed one stays held; an unreadable one counts as held, an
// empty or missing one is free; the guard can be turned off.
#include <chrono>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/leader/leader_elector.hpp"
#include "tests/support/lease_api_fixture.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using namespace lease_fixture;

TEST(LeaderElector, a_held_legacy_lease_blocks_the_campaign_and_is_logged_once_a_minute) {
  Fixture f;
  f.api.set_lease(kLegacyPath, held_by("koord-queue-7d9f", 100));
  ::testing::internal::CaptureStderr();
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLegacyPath) >= 3; }));
  f.clock += 30 * kSecond;
  size_t gets = f.api.count("GET " + kLegacyPath);
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLegacyPath) >= gets + 3; }));
  f.clock += 31 * kSecond;  // 61 s after the first line
  gets = f.api.count("GET " + kLegacyPath);
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLegacyPath) >= gets + 3; }));
  EXPECT_EQ(f.api.count("GET " + kLeasePath), 0u);
  EXPECT_FALSE(elector.leading());
  f.clock += 39 * kSecond;  // 100 s since the record was first seen: expired
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  elector.stop();
  const std::string log = ::testing::internal::GetCapturedStderr();
  const std::string line =
      "] not leading: legacy lease default/example-lease is held by koord-queue-7d9f (--legacy-lease-guard)\n";
  size_t lines = 0;
  for (size_t at = log.find(line); at != std::string::npos; at = log.find(line, at + 1)) ++lines;
  EXPECT_EQ(lines, 2u) << log;
}

TEST(LeaderElector, a_renewed_legacy_lease_stays_held) {
  Fixture f;
  f.api.set_lease(kLegacyPath, held_by("koord-queue-7d9f", 15));
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLegacyPath) >= 2; }));
  f.clock += 10 * kSecond;
  LeaseRecord renewed = held_by("koord-queue-7d9f", 15);
  renewed.renew_time = "2026-04-20T08:00:10.000000Z";
  f.api.set_lease(kLegacyPath, renewed);
  size_t gets = f.api.count("GET " + kLegacyPath);
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLegacyPath) >= gets + 2; }));
  f.clock += 10 * kSecond;  // 20 s after first seen, 10 s after the renewal
  gets = f.api.count("GET " + kLegacyPath);
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLegacyPath) >= gets + 3; }));
  EXPECT_EQ(f.api.count("GET " + kLeasePath), 0u);
  f.clock += 5 * kSecond;
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
}

TEST(LeaderElector, an_unreadable_legacy_lease_counts_as_held_and_an_empty_or_missing_one_is_free) {
  Fixture f;
  f.api.fail("GET " + kLegacyPath, 403);
  ::testing::internal::CaptureStderr();
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLegacyPath) >= 3; }));
  EXPECT_EQ(f.api.count("GET " + kLeasePath), 0u);
  f.api.fail("GET " + kLegacyPath, 0);
  f.api.set_lease(kLegacyPath, held_by(""));
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  elector.stop();
  EXPECT_THAT(::testing::internal::GetCapturedStderr(),
              HasSubstr("not leading: legacy lease default/example-lease cannot be read and counts as held "
                        "(--legacy-lease-guard): HTTP 403"));
}

TEST(LeaderElector, the_guard_can_be_turned_off) {
  Fixture f;
  f.api.set_lease(kLegacyPath, held_by("koord-queue-7d9f"));
  LeaderElectionOptions options = f.options();
  options.legacy_guard.reset();
  LeaderElector elector(*f.client, options, f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  EXPECT_EQ(f.api.count("GET " + kLegacyPath), 0u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
