// kube/leader's pure parts: the Lease record read and written back, MicroTime, expiry by the
// observer's clock, the Pod label bodies.
#include <gtest/gtest.h>

#include "base/time_units.hpp"
#include "kube/leader/lease_record.hpp"
#include "kube/leader/pod_label.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using base::kSecond;

TEST(LeaseRecord, parses_the_spec_and_resource_version) {
  Result<FetchedLease> lease = parse_lease(
      R"({"kind":"Lease","metadata":{"name":"koordq","resourceVersion":"77"},"spec":{"holderIdentity":"pod-a_1",)"
      R"("leaseDurationSeconds":15,"acquireTime":"2026-04-20T08:00:00.000000Z",)"
      R"("renewTime":"2026-04-20T08:00:10.500000Z","leaseTransitions":3}})");
  ASSERT_TRUE(lease.ok()) << lease.message();
  EXPECT_EQ(lease->resource_version, "77");
  EXPECT_EQ(lease->record.holder_identity, "pod-a_1");
  EXPECT_EQ(lease->record.lease_duration_seconds, 15);
  EXPECT_EQ(lease->record.acquire_time, "2026-04-20T08:00:00.000000Z");
  EXPECT_EQ(lease->record.renew_time, "2026-04-20T08:00:10.500000Z");
  EXPECT_EQ(lease->record.lease_transitions, 3);
}

TEST(LeaseRecord, an_empty_spec_is_a_free_lease_and_bad_fields_are_named) {
  Result<FetchedLease> empty = parse_lease(R"({"metadata":{"resourceVersion":"1"},"spec":{}})");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->record, LeaseRecord{});
  Result<FetchedLease> bad = parse_lease(R"({"spec":{"leaseTransitions":"three"}})");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "lease: spec.leaseTransitions: expected an integer");
  EXPECT_FALSE(parse_lease("not json").ok());
  EXPECT_FALSE(parse_lease(R"({"spec":[]})").ok());
}

TEST(LeaseRecord, create_and_update_bodies) {
  LeaseRecord record{"pod-a_1", 15, "2026-04-20T08:00:00.000000Z", "2026-04-20T08:00:02.000000Z", 4};
  EXPECT_EQ(lease_create_body("koord-queue", "koordq", record),
            R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"koordq",)"
            R"("namespace":"koord-queue"},"spec":{"holderIdentity":"pod-a_1","leaseDurationSeconds":15,)"
            R"("acquireTime":"2026-04-20T08:00:00.000000Z","renewTime":"2026-04-20T08:00:02.000000Z",)"
            R"("leaseTransitions":4}})");
  // The update keeps the object as read (labels, resourceVersion) and replaces the spec whole.
  Result<std::string> update = lease_update_body(
      R"({"metadata":{"name":"koordq","resourceVersion":"9","labels":{"a":"b"}},"spec":{"holderIdentity":"x","extra":1}})",
      LeaseRecord{"", 1, "2026-04-20T08:00:03.000000Z", "2026-04-20T08:00:03.000000Z", 4});
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(*update,
            R"({"metadata":{"name":"koordq","resourceVersion":"9","labels":{"a":"b"}},"spec":{"holderIdentity":"",)"
            R"("leaseDurationSeconds":1,"acquireTime":"2026-04-20T08:00:03.000000Z",)"
            R"("renewTime":"2026-04-20T08:00:03.000000Z","leaseTransitions":4}})");
  EXPECT_FALSE(lease_update_body("[", record).ok());
}

TEST(LeaseRecord, micro_time_has_six_fraction_digits) {
  EXPECT_EQ(format_micro_time(1776672000LL * kSecond), "2026-04-20T08:00:00.000000Z");
  EXPECT_EQ(format_micro_time(1776672000LL * kSecond + 1'234'567'891), "2026-04-20T08:00:01.234567Z");
}

TEST(LeaseObservation, expires_a_duration_after_the_record_last_changed) {
  LeaseObservation seen;
  EXPECT_TRUE(seen.expired(0, 15 * kSecond));
  LeaseRecord a{"a", 15, "t0", "t0", 0};
  seen.observe(a, 100 * kSecond);
  seen.observe(a, 110 * kSecond);  // unchanged: the clock keeps running from 100 s
  EXPECT_FALSE(seen.expired(114 * kSecond, 15 * kSecond));
  EXPECT_TRUE(seen.expired(115 * kSecond, 15 * kSecond));
  LeaseRecord renewed = a;
  renewed.renew_time = "t1";
  seen.observe(renewed, 116 * kSecond);
  EXPECT_FALSE(seen.expired(130 * kSecond, 15 * kSecond));
  EXPECT_TRUE(seen.expired(131 * kSecond, 15 * kSecond));
  seen.reset();
  EXPECT_FALSE(seen.seen());
}

TEST(PodLabel, bodies_and_detection) {
  EXPECT_EQ(leader_label_set_body(), R"({"metadata":{"labels":{"koord-queue-leader":"true"}}})");
  EXPECT_EQ(leader_label_remove_body(), R"({"metadata":{"labels":{"koord-queue-leader":null}}})");
  EXPECT_EQ(pod_path("koord-queue", "koordq-0"), "/api/v1/namespaces/koord-queue/pods/koordq-0");
  EXPECT_TRUE(pod_has_leader_label(R"({"metadata":{"labels":{"koord-queue-leader":"true"}}})"));
  EXPECT_FALSE(pod_has_leader_label(R"({"metadata":{"labels":{"app":"koordq"}}})"));
  EXPECT_FALSE(pod_has_leader_label(R"({"metadata":{}})"));
  EXPECT_TRUE(pod_has_leader_label("garbage"));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
