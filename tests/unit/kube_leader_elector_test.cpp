// kube/leader's elector against a local server holding Leases and a Pod (behaviour.md §19):
// acquiring a missing Lease, renewing, following another holder until its record expires by the
// elector's own clock, losing on failed renewals and to another holder, release and resume, the
// leader label and its failure, stop, --leader-elect=false, and the leader identity.
#include <chrono>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/leader/leader_elector.hpp"
#include "tests/support/lease_api_fixture.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using namespace lease_fixture;

TEST(LeaderElector, creates_a_missing_lease_labels_its_pod_and_renews) {
  Fixture f;
  ::testing::internal::CaptureStderr();
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  EXPECT_TRUE(elector.leading());
  EXPECT_EQ(elector.holder(), "koordq-0_1111");
  EXPECT_TRUE(f.api.pod_labelled());
  std::vector<std::string> calls = f.api.calls();
  ASSERT_GE(calls.size(), 5u);
  EXPECT_EQ(calls[0], "GET " + kPodPath) << "the label is absent: no removal";
  EXPECT_EQ(calls[1], "GET " + kLegacyPath);
  EXPECT_EQ(calls[2], "GET " + kLeasePath);
  EXPECT_EQ(calls[3], "POST /apis/coordination.k8s.io/v1/namespaces/koord-queue/leases");
  EXPECT_EQ(calls[4], "PATCH " + kPodPath);
  EXPECT_EQ(f.api.bodies("POST /apis/coordination.k8s.io/v1/namespaces/koord-queue/leases")[0],
            R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"koordq",)"
            R"("namespace":"koord-queue"},"spec":{"holderIdentity":"koordq-0_1111","leaseDurationSeconds":15,)"
            R"("acquireTime":"2026-04-20T08:00:00.000000Z","renewTime":"2026-04-20T08:00:00.000000Z",)"
            R"("leaseTransitions":0}})");
  EXPECT_EQ(f.api.bodies("PATCH " + kPodPath)[0], R"({"metadata":{"labels":{"koord-queue-leader":"true"}}})");

  f.clock += 3 * kSecond;
  ASSERT_TRUE(eventually([&] { return f.api.lease(kLeasePath)->renew_time == "2026-04-20T08:00:03.000000Z"; }));
  LeaseRecord renewed = *f.api.lease(kLeasePath);
  EXPECT_EQ(renewed.holder_identity, "koordq-0_1111");
  EXPECT_EQ(renewed.acquire_time, "2026-04-20T08:00:00.000000Z") << "kept while renewing";
  EXPECT_EQ(renewed.lease_transitions, 0);
  EXPECT_EQ(f.api.count("GET " + kLegacyPath), 1u) << "the guard is not checked once leading";
  elector.stop();
  const std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(log, HasSubstr("] became leader\n"));
  EXPECT_EQ(f.events.leaders(), std::vector<std::string>{});
}

TEST(LeaderElector, follows_another_holder_until_its_record_expires_by_its_own_clock) {
  Fixture f;
  f.api.set_lease(kLeasePath, held_by("koordq-1_2222", 15, 4));
  ::testing::internal::CaptureStderr();
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.leaders().size() == 1; }));
  EXPECT_EQ(f.events.leaders()[0], "koordq-1_2222");
  EXPECT_EQ(elector.holder(), "koordq-1_2222");
  // The record's renewTime is an hour old, but expiry counts from when this elector first saw it.
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLeasePath) >= 3; }));
  f.clock += 14 * kSecond;
  const size_t gets = f.api.count("GET " + kLeasePath);
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLeasePath) >= gets + 3; }));
  EXPECT_FALSE(elector.leading());
  EXPECT_EQ(f.api.count("PUT " + kLeasePath), 0u);
  EXPECT_EQ(f.api.count("PATCH " + kPodPath), 0u) << "a follower writes no label";
  f.clock += 1 * kSecond;
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  LeaseRecord taken = *f.api.lease(kLeasePath);
  EXPECT_EQ(taken.holder_identity, "koordq-0_1111");
  EXPECT_EQ(taken.lease_transitions, 5);
  EXPECT_EQ(taken.acquire_time, "2026-04-20T08:00:15.000000Z");
  EXPECT_EQ(taken.renew_time, "2026-04-20T08:00:15.000000Z");
  elector.stop();
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), HasSubstr("] new leader elected: koordq-1_2222\n"));
}

TEST(LeaderElector, a_renewal_that_keeps_failing_for_the_renew_deadline_loses_the_lease) {
  Fixture f;
  LeaderElectionOptions options = f.options(true);
  options.lease_duration = 1000ms;
  options.renew_deadline = 300ms;
  ::testing::internal::CaptureStderr();
  LeaderElector elector(*f.client, options, f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  f.api.fail("PUT " + kLeasePath, 409);
  const auto lost_from = std::chrono::steady_clock::now();
  ASSERT_TRUE(eventually([&] { return f.events.stopped == 1; }));
  EXPECT_GE(std::chrono::steady_clock::now() - lost_from, 250ms) << "retried until the renew deadline";
  EXPECT_FALSE(elector.leading());
  ASSERT_TRUE(eventually([&] { return !f.api.pod_labelled(); })) << "the label removal follows";
  EXPECT_EQ(f.api.bodies("PATCH " + kPodPath).back(), R"({"metadata":{"labels":{"koord-queue-leader":null}}})");
  const size_t puts = f.api.count("PUT " + kLeasePath);
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(f.api.count("PUT " + kLeasePath), puts) << "no campaign after a loss: the process exits";
  elector.stop();
  EXPECT_EQ(f.events.stopped, 1);
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), HasSubstr("] stopped leading\n"));
}

TEST(LeaderElector, loses_to_a_holder_that_took_the_lease_over) {
  Fixture f;
  LeaderElectionOptions options = f.options(true);
  options.lease_duration = 1000ms;
  options.renew_deadline = 200ms;
  LeaderElector elector(*f.client, options, f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  f.api.set_lease(kLeasePath, held_by("koordq-1_2222"));
  ASSERT_TRUE(eventually([&] { return f.events.stopped == 1; }));
  EXPECT_EQ(f.events.leaders(), std::vector<std::string>{"koordq-1_2222"});
  EXPECT_EQ(elector.holder(), "koordq-1_2222");
  EXPECT_EQ(f.api.lease(kLeasePath)->holder_identity, "koordq-1_2222") << "not overwritten";
}

TEST(LeaderElector, release_gives_up_label_and_lease_and_resume_campaigns_again) {
  Fixture f;
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  f.clock += kSecond;
  elector.release();
  EXPECT_FALSE(elector.leading()) << "at once";
  ASSERT_TRUE(eventually([&] { return f.api.lease(kLeasePath)->holder_identity.empty(); }));
  LeaseRecord released = *f.api.lease(kLeasePath);
  EXPECT_EQ(released.lease_duration_seconds, 1);
  EXPECT_EQ(released.renew_time, "2026-04-20T08:00:01.000000Z");
  EXPECT_EQ(released.lease_transitions, 0);
  EXPECT_FALSE(f.api.pod_labelled());
  const size_t gets = f.api.count("GET " + kLeasePath);
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(f.api.count("GET " + kLeasePath), gets) << "no campaign until resume()";
  EXPECT_EQ(f.events.stopped, 0) << "not a loss";
  elector.resume();
  ASSERT_TRUE(eventually([&] { return f.events.started == 2; }));
  EXPECT_EQ(f.api.lease(kLeasePath)->holder_identity, "koordq-0_1111");
  EXPECT_EQ(f.api.lease(kLeasePath)->lease_transitions, 1);
  EXPECT_TRUE(f.api.pod_labelled());
}

TEST(LeaderElector, a_release_after_a_renewal_that_landed_unseen_reads_the_lease_again) {
  Fixture f;
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  // A renewal cut off by the release reached the server: the Lease has a newer resourceVersion
  // than the one the elector saw, still naming it.
  f.api.set_lease(kLeasePath, held_by("koordq-0_1111"));
  f.clock += kSecond;
  ::testing::internal::CaptureStderr();
  elector.release();
  ASSERT_TRUE(eventually([&] { return f.api.lease(kLeasePath)->holder_identity.empty(); }));
  EXPECT_EQ(f.api.lease(kLeasePath)->lease_duration_seconds, 1);
  elector.stop();
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), Not(HasSubstr("failed to release lease")));
}

TEST(LeaderElector, a_released_follower_stops_campaigning_until_resumed) {
  Fixture f;
  f.api.set_lease(kLeasePath, held_by("koordq-1_2222"));
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLeasePath) >= 2; }));
  elector.release();
  std::this_thread::sleep_for(30ms);
  const size_t gets = f.api.count("GET " + kLeasePath);
  std::this_thread::sleep_for(100ms);
  EXPECT_EQ(f.api.count("GET " + kLeasePath), gets);
  EXPECT_EQ(f.api.count("PUT " + kLeasePath), 0u) << "a follower has no Lease to release";
  f.clock += 15 * kSecond;
  elector.resume();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
}

TEST(LeaderElector, a_label_that_cannot_be_set_releases_the_lease_and_is_fatal) {
  Fixture f;
  f.api.fail("PATCH " + kPodPath, 500);
  LeaderElectionOptions options = f.options();
  options.label_set_timeout = 500ms;
  LeaderElector elector(*f.client, options, f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] {
    std::lock_guard lock(f.events.mutex);
    return !f.events.fatal.empty();
  }));
  EXPECT_THAT(f.events.fatal[0],
              HasSubstr("cannot set label koord-queue-leader on pod koord-queue/koordq-0: HTTP 500"));
  EXPECT_GE(f.api.count("PATCH " + kPodPath), 3u) << "retried";
  EXPECT_EQ(f.events.started, 0);
  EXPECT_FALSE(elector.leading());
  ASSERT_TRUE(f.api.lease(kLeasePath).has_value());
  EXPECT_EQ(f.api.lease(kLeasePath)->holder_identity, "");
  EXPECT_EQ(f.api.lease(kLeasePath)->lease_duration_seconds, 1);
}

TEST(LeaderElector, stop_while_leading_removes_the_label_and_releases_the_lease) {
  Fixture f;
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  elector.stop();
  elector.stop();
  EXPECT_FALSE(elector.leading());
  EXPECT_FALSE(f.api.pod_labelled());
  EXPECT_EQ(f.api.lease(kLeasePath)->holder_identity, "");
  EXPECT_EQ(f.api.lease(kLeasePath)->lease_duration_seconds, 1);
  EXPECT_EQ(f.events.stopped, 0);
  std::vector<std::string> calls = f.api.calls();
  EXPECT_EQ(calls[calls.size() - 2], "PATCH " + kPodPath) << "the label goes first";
  EXPECT_EQ(calls.back(), "PUT " + kLeasePath);
}

TEST(LeaderElector, a_follower_stops_at_once_and_writes_nothing) {
  Fixture f;
  f.api.set_lease(kLeasePath, held_by("koordq-1_2222"));
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLeasePath) >= 2; }));
  const auto start = std::chrono::steady_clock::now();
  elector.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_EQ(f.api.count("PUT " + kLeasePath), 0u);
  EXPECT_EQ(f.api.count("PATCH " + kPodPath), 0u);
}

TEST(LeaderElector, without_election_it_leads_at_once_after_the_guard_and_still_labels) {
  Fixture f;
  LeaderElectionOptions options = f.options();
  options.enabled = false;
  LeaderElector elector(*f.client, options, f.events.callbacks());
  elector.start();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
  EXPECT_TRUE(f.api.pod_labelled());
  EXPECT_EQ(f.api.count("GET " + kLegacyPath), 1u);
  EXPECT_EQ(f.api.count("GET " + kLeasePath), 0u);
  elector.stop();
  EXPECT_FALSE(f.api.pod_labelled());
  EXPECT_EQ(f.api.count("PUT " + kLeasePath), 0u);
}

TEST(LeaderElector, removes_a_leftover_label_before_campaigning_and_skips_pod_steps_outside_a_cluster) {
  {
    Fixture f;
    f.api.set_pod_label(true);
    f.api.set_lease(kLeasePath, held_by("koordq-1_2222"));
    LeaderElector elector(*f.client, f.options(), f.events.callbacks());
    elector.start();
    ASSERT_TRUE(eventually([&] { return f.api.count("GET " + kLeasePath) >= 1; }));
    std::vector<std::string> calls = f.api.calls();
    EXPECT_EQ(calls[0], "GET " + kPodPath);
    EXPECT_EQ(calls[1], "PATCH " + kPodPath);
    EXPECT_EQ(f.api.bodies("PATCH " + kPodPath)[0], R"({"metadata":{"labels":{"koord-queue-leader":null}}})");
    EXPECT_FALSE(f.api.pod_labelled());
  }
  {
    Fixture f;
    LeaderElectionOptions options = f.options();
    options.pod_name.clear();
    LeaderElector elector(*f.client, options, f.events.callbacks());
    elector.start();
    ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
    elector.stop();
    for (const std::string& call : f.api.calls()) EXPECT_THAT(call, ::testing::Not(HasSubstr("/pods/")));
  }
}

TEST(LeaderElector, a_replica_released_before_it_starts_still_removes_its_leftover_label) {
  Fixture f;
  f.api.set_pod_label(true);
  LeaderElector elector(*f.client, f.options(), f.events.callbacks());
  elector.release();  // its journal cannot be written: no campaign
  elector.start();
  ASSERT_TRUE(eventually([&] { return !f.api.pod_labelled(); }));
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(f.api.count("GET " + kLegacyPath), 0u);
  EXPECT_EQ(f.api.count("GET " + kLeasePath), 0u);
  elector.resume();
  ASSERT_TRUE(eventually([&] { return f.events.started == 1; }));
}

TEST(LeaderIdentity, is_the_pod_name_and_a_random_uuid) {
  ::setenv("POD_NAME", "koordq-5", 1);
  const std::string a = make_leader_identity();
  const std::string b = make_leader_identity();
  ::unsetenv("POD_NAME");
  EXPECT_THAT(a,
              ::testing::MatchesRegex("koordq-5_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
  EXPECT_NE(a, b);
  EXPECT_THAT(make_leader_identity(), ::testing::Not(::testing::StartsWith("koordq-5_")));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
