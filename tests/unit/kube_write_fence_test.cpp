// kube/client's leadership fence (behaviour.md §19): the exact deadline (open until one tick
// before, closed at it), reigns that end for good, and HttpClient checking a request's pass
// immediately before it leaves (and again as its bytes reach the socket): a held-back request
// never reaches the server and is not retried.
#include <atomic>
#include <chrono>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/client/http_client.hpp"
#include "kube/client/write_fence.hpp"
#include "tests/support/scripted_http_server.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::ScriptedHttpServer;
using Clock = WriteFence::Clock;

// A monotonic clock the test moves.
struct ManualClock {
  std::atomic<int64_t> ns{1'000'000'000};
  Clock::time_point now() const { return Clock::time_point(std::chrono::nanoseconds(ns.load())); }
  WriteFence fence() {
    return WriteFence([this] { return now(); });
  }
};

TEST(WriteFence, admits_nothing_until_opened_and_nothing_from_the_deadline_on) {
  ManualClock clock;
  WriteFence fence = clock.fence();
  const uint64_t reign = fence.reign();
  EXPECT_THAT(fence.admits(reign).message(), HasSubstr("does not lead"));
  const Clock::time_point deadline = clock.now() + 10s;
  fence.open_until(deadline);
  EXPECT_TRUE(fence.admits(reign).ok());
  clock.ns += std::chrono::nanoseconds(10s).count() - 1;
  EXPECT_TRUE(fence.admits(reign).ok()) << "one nanosecond before renew time + renew deadline";
  clock.ns += 1;
  EXPECT_EQ(clock.now(), deadline);
  EXPECT_THAT(fence.admits(reign).message(), HasSubstr("leadership fence expired")) << "at the deadline";
  fence.open_until(deadline + 2s);  // a late renewal of the same reign
  EXPECT_TRUE(fence.admits(reign).ok());
}

TEST(WriteFence, a_closed_reign_never_opens_again) {
  ManualClock clock;
  WriteFence fence = clock.fence();
  fence.open_until(clock.now() + 10s);
  const FencePass old = FencePass::of_current_reign(&fence);
  EXPECT_FALSE(old.closed());
  fence.close();
  EXPECT_TRUE(old.closed());
  EXPECT_EQ(fence.deadline(), Clock::time_point::min());
  fence.open_indefinitely();  // the next reign
  const FencePass next = FencePass::of_current_reign(&fence);
  EXPECT_FALSE(next.closed());
  EXPECT_THAT(old.admits().message(), HasSubstr("leadership this write was decided under has ended"));
  EXPECT_FALSE(FencePass{}.closed()) << "no fence: unfenced";
}

class FencedClientTest : public ::testing::Test {
 protected:
  std::unique_ptr<HttpClient> client(int max_attempts = 1) {
    ClientConfig config;
    EXPECT_TRUE(parse_server_url(server_.url(), config).ok());
    config.source = "test";
    HttpOptions options;
    options.qps = 0;
    options.retry.max_attempts = max_attempts;
    options.retry.base_delay = 1ms;
    auto c = HttpClient::create(config, options);
    EXPECT_TRUE(c.ok()) << c.message();
    return std::move(*c);
  }
  Request patch(const WriteFence& fence) {
    Request r;
    r.verb = Verb::kPatch;
    r.target = "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/queueunits/job1";
    r.body = "{}";
    r.has_precondition = true;
    r.fence = FencePass::of_current_reign(&fence);
    return r;
  }

  ScriptedHttpServer server_;
};

TEST_F(FencedClientTest, a_request_leaves_one_tick_before_the_deadline_and_not_at_it) {
  ManualClock clock;
  WriteFence fence = clock.fence();
  fence.open_until(clock.now() + 1ns);
  server_.script({{http_reply(200, "{}")}});
  auto c = client();
  Result<Response> sent = c->send(patch(fence));
  ASSERT_TRUE(sent.ok()) << sent.message();
  EXPECT_EQ(sent->status, 200);
  clock.ns += 1;
  Result<Response> held = c->send(patch(fence));
  ASSERT_FALSE(held.ok());
  EXPECT_THAT(held.message(), HasSubstr("leadership fence expired"));
  EXPECT_EQ(server_.received().size(), 1u) << "the second request never reached the server";
}

TEST_F(FencedClientTest, a_retry_after_the_fence_closed_is_not_sent) {
  ManualClock clock;
  WriteFence fence = clock.fence();
  fence.open_until(clock.now() + 10s);
  // The first attempt is answered 503; the fence closes before the retry would leave.
  server_.respond_with([&](const testing::ReceivedRequest&) {
    fence.close();
    return testing::ScriptedReply{{http_reply(503, "{}")}};
  });
  auto c = client(5);
  Result<Response> answer = c->send(patch(fence));
  ASSERT_FALSE(answer.ok());
  EXPECT_THAT(answer.message(), HasSubstr("has ended"));
  EXPECT_EQ(server_.received().size(), 1u);
}

// The process stops (SIGSTOP, a paused VM) after the request passed the fence and before its
// bytes reached the socket: the clock has moved past the deadline by the time the write would
// leave, so nothing leaves. The clock moves one deadline on at each read; the first check passes.
TEST_F(FencedClientTest, a_request_held_up_between_the_check_and_the_socket_does_not_leave) {
  ManualClock clock;
  WriteFence fence([&clock] {
    const Clock::time_point now = clock.now();
    clock.ns += std::chrono::nanoseconds(1s).count();
    return now;
  });
  fence.open_until(clock.now() + 1s);
  server_.script({{http_reply(200, "{}")}});
  auto c = client();
  Result<Response> held = c->send(patch(fence));
  ASSERT_FALSE(held.ok());
  EXPECT_THAT(held.message(), HasSubstr("leadership fence expired"));
  EXPECT_TRUE(server_.received().empty()) << "the request reached the server";
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
