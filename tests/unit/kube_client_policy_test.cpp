// The pure decisions of kube/client: the qps/burst token bucket, when and after how long a request
// is retried (Retry-After, jittered exponential backoff, repeatable verbs only), and the
// deduplication of watch events by (uid, resourceVersion).
#include <gtest/gtest.h>

#include "kube/client/event_dedupe.hpp"
#include "kube/client/rate_limiter.hpp"
#include "kube/client/retry_policy.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using namespace std::chrono_literals;
using Clock = RateLimiter::Clock;

TEST(RateLimiter, a_full_bucket_lets_burst_requests_through_then_spaces_them_at_qps) {
  const Clock::time_point t0{};
  RateLimiter bucket(10, 3, t0);
  EXPECT_EQ(bucket.reserve(t0), Clock::duration::zero());
  EXPECT_EQ(bucket.reserve(t0), Clock::duration::zero());
  EXPECT_EQ(bucket.reserve(t0), Clock::duration::zero());
  // Empty: each further request waits one more refill interval (100 ms at 10 qps).
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(bucket.reserve(t0)), 100ms);
  EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(bucket.reserve(t0)), 200ms);
}

TEST(RateLimiter, refills_over_time_up_to_burst) {
  const Clock::time_point t0{};
  RateLimiter bucket(10, 2, t0);
  bucket.reserve(t0);
  bucket.reserve(t0);
  EXPECT_GT(bucket.reserve(t0 + 50ms), Clock::duration::zero()) << "half a token after 50 ms";
  // An hour idle refills only `burst` tokens: two free requests, the third waits.
  const Clock::time_point later = t0 + 1h;
  EXPECT_EQ(bucket.reserve(later), Clock::duration::zero());
  EXPECT_EQ(bucket.reserve(later), Clock::duration::zero());
  EXPECT_GT(bucket.reserve(later), Clock::duration::zero());
}

TEST(RateLimiter, sustained_rate_is_qps) {
  Clock::time_point now{};
  RateLimiter bucket(50, 50, now);
  for (int i = 0; i < 50; ++i) bucket.reserve(now);
  // 500 more requests, each sent when its wait is over: they take 10 s at 50 qps.
  for (int i = 0; i < 500; ++i) now += bucket.reserve(now);
  EXPECT_NEAR(std::chrono::duration<double>(now - Clock::time_point{}).count(), 10.0, 0.05);
}

TEST(RateLimiter, no_limit_when_qps_is_not_positive) {
  RateLimiter bucket(0, 1, Clock::time_point{});
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(bucket.reserve(Clock::time_point{}), Clock::duration::zero());
}

TEST(RetryPolicy, only_repeatable_requests_are_retried) {
  EXPECT_TRUE(is_repeatable(Verb::kGet, false));
  EXPECT_TRUE(is_repeatable(Verb::kPut, false));
  EXPECT_TRUE(is_repeatable(Verb::kDelete, false));
  EXPECT_FALSE(is_repeatable(Verb::kPost, false));
  EXPECT_FALSE(is_repeatable(Verb::kPost, true));
  EXPECT_FALSE(is_repeatable(Verb::kPatch, false));
  EXPECT_TRUE(is_repeatable(Verb::kPatch, true)) << "a PATCH with a resourceVersion precondition";
  const RetryPolicy policy;
  const AttemptOutcome unavailable{503, std::nullopt};
  EXPECT_FALSE(retry_delay(policy, Verb::kPost, false, 1, unavailable, 0.5));
  EXPECT_FALSE(retry_delay(policy, Verb::kPatch, false, 1, unavailable, 0.5));
  EXPECT_TRUE(retry_delay(policy, Verb::kPatch, true, 1, unavailable, 0.5));
  EXPECT_FALSE(retry_delay(policy, Verb::kPost, false, 1, AttemptOutcome{}, 0.5)) << "connection error, POST";
}

TEST(RetryPolicy, retried_statuses_are_429_and_5xx_and_connection_errors) {
  const RetryPolicy policy;
  for (int status : {429, 500, 502, 503, 504}) {
    EXPECT_TRUE(retry_delay(policy, Verb::kGet, false, 1, AttemptOutcome{status, std::nullopt}, 0)) << status;
  }
  for (int status : {200, 201, 400, 401, 403, 404, 409, 410, 422}) {
    EXPECT_FALSE(retry_delay(policy, Verb::kGet, false, 1, AttemptOutcome{status, std::nullopt}, 0)) << status;
  }
  EXPECT_TRUE(retry_delay(policy, Verb::kGet, false, 1, AttemptOutcome{}, 0)) << "connection error";
}

TEST(RetryPolicy, retry_after_is_honoured_and_capped) {
  const RetryPolicy policy;
  EXPECT_EQ(retry_delay(policy, Verb::kGet, false, 1, AttemptOutcome{429, 7s}, 0.9), 7000ms);
  EXPECT_EQ(retry_delay(policy, Verb::kGet, false, 1, AttemptOutcome{503, 0s}, 0.9), 0ms);
  EXPECT_EQ(retry_delay(policy, Verb::kGet, false, 1, AttemptOutcome{503, 3600s}, 0.9), 60000ms);
  EXPECT_EQ(parse_retry_after("7"), 7s);
  EXPECT_EQ(parse_retry_after(" 120 "), 120s);
  EXPECT_FALSE(parse_retry_after("Wed, 21 Oct 2026 07:28:00 GMT"));
  EXPECT_FALSE(parse_retry_after("-1"));
  EXPECT_FALSE(parse_retry_after(""));
  EXPECT_FALSE(parse_retry_after("1e3"));
}

TEST(RetryPolicy, backoff_doubles_with_jitter_up_to_the_cap_and_attempts_are_bounded) {
  RetryPolicy policy;
  policy.base_delay = 200ms;
  policy.max_delay = 1000ms;
  policy.max_attempts = 6;
  const AttemptOutcome error{};
  // d = 200, 400, 800, 1000 (capped); the delay lies in [d/2, d].
  const int64_t full[] = {200, 400, 800, 1000, 1000};
  for (int attempt = 1; attempt <= 5; ++attempt) {
    EXPECT_EQ(retry_delay(policy, Verb::kGet, false, attempt, error, 0.0)->count(), full[attempt - 1] / 2) << attempt;
    EXPECT_EQ(retry_delay(policy, Verb::kGet, false, attempt, error, 1.0)->count(), full[attempt - 1]) << attempt;
    int64_t middle = retry_delay(policy, Verb::kGet, false, attempt, error, 0.5)->count();
    EXPECT_GT(middle, full[attempt - 1] / 2);
    EXPECT_LT(middle, full[attempt - 1]);
  }
  EXPECT_FALSE(retry_delay(policy, Verb::kGet, false, 6, error, 0.5)) << "the sixth attempt was the last";
}

// The watchers' backoff between failed attempts is the same curve, by failures in a row.
TEST(RetryPolicy, the_watchers_backoff_doubles_per_failure_in_a_row_up_to_its_cap) {
  EXPECT_EQ(backoff_delay(1, 200ms, 30s, 0.0), 100ms);
  EXPECT_EQ(backoff_delay(1, 200ms, 30s, 1.0), 200ms);
  EXPECT_EQ(backoff_delay(4, 200ms, 30s, 1.0), 1600ms);
  EXPECT_EQ(backoff_delay(9, 200ms, 30s, 1.0), 30s);   // 51.2 s capped
  EXPECT_EQ(backoff_delay(64, 200ms, 30s, 0.0), 15s);  // no overflow past 2^30
  const auto middle = backoff_delay(3, 200ms, 30s, 0.5);
  EXPECT_GT(middle, 400ms);
  EXPECT_LT(middle, 800ms);
}

schema::WatchEvent event(schema::WatchEventType type, const std::string& uid, const std::string& rv) {
  schema::QueueUnit unit;
  unit.metadata.name = "u-" + uid;
  unit.metadata.namespace_ = "ns";
  unit.metadata.uid = uid;
  unit.metadata.resource_version = rv;
  schema::WatchEvent e;
  e.type = type;
  e.object = unit;
  return e;
}

using T = schema::WatchEventType;

TEST(EventDeduper, an_event_repeated_with_the_same_uid_and_resource_version_is_dropped) {
  EventDeduper dedupe;
  EXPECT_TRUE(dedupe.admit(event(T::kAdded, "a", "1")));
  EXPECT_FALSE(dedupe.admit(event(T::kAdded, "a", "1")));
  EXPECT_FALSE(dedupe.admit(event(T::kModified, "a", "1")));
  EXPECT_TRUE(dedupe.admit(event(T::kModified, "a", "2")));
  EXPECT_TRUE(dedupe.admit(event(T::kModified, "b", "2"))) << "another uid at the same resourceVersion";
  EXPECT_TRUE(dedupe.admit(event(T::kDeleted, "a", "3")));
  EXPECT_FALSE(dedupe.admit(event(T::kDeleted, "a", "3")));
  EXPECT_FALSE(dedupe.admit(event(T::kModified, "a", "3"))) << "the deletion's resourceVersion, again";
  EXPECT_TRUE(dedupe.admit(event(T::kAdded, "c", "4")));
}

TEST(EventDeduper, resource_versions_are_opaque_and_compared_only_for_equality) {
  EventDeduper dedupe;
  EXPECT_TRUE(dedupe.admit(event(T::kAdded, "a", "9")));
  EXPECT_TRUE(dedupe.admit(event(T::kModified, "a", "10")));
  EXPECT_TRUE(dedupe.admit(event(T::kModified, "a", "abc")));
}

TEST(EventDeduper, a_relist_defines_what_has_been_delivered) {
  EventDeduper dedupe;
  EXPECT_TRUE(dedupe.admit(event(T::kAdded, "old", "1")));
  std::vector<schema::DecodedObject> listed(1);
  listed[0].object = *event(T::kAdded, "a", "5").object;
  dedupe.reset(listed);
  EXPECT_EQ(dedupe.tracked(), 1u);
  EXPECT_FALSE(dedupe.admit(event(T::kAdded, "a", "5"))) << "already in the LIST";
  EXPECT_TRUE(dedupe.admit(event(T::kModified, "a", "6")));
  EXPECT_TRUE(dedupe.admit(event(T::kAdded, "old", "1"))) << "forgotten by the relist";
}

TEST(EventDeduper, remembered_deletions_are_bounded) {
  EventDeduper dedupe(2);
  for (const char* uid : {"a", "b", "c"}) {
    dedupe.admit(event(T::kAdded, uid, "1"));
    dedupe.admit(event(T::kDeleted, uid, "2"));
  }
  EXPECT_FALSE(dedupe.admit(event(T::kDeleted, "c", "2")));
  EXPECT_FALSE(dedupe.admit(event(T::kDeleted, "b", "2")));
  EXPECT_TRUE(dedupe.admit(event(T::kDeleted, "a", "2"))) << "the oldest deletion was forgotten";
  EXPECT_EQ(dedupe.tracked(), 0u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
