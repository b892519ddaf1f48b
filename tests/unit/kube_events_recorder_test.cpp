// kube/events' recorder against a local scripted server (behaviour.md §13.2): the POST body, a
// repeat as PATCH, a PATCH 404 falling back to POST, the rate limit, the combined message, 409
// dropped, retries of failed writes, stop() dropping what is queued, the write fence.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "kube/client/write_fence.hpp"
#include "kube/events/event_recorder.hpp"
#include "tests/support/scripted_http_server.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using namespace std::chrono_literals;
using testing::http_reply;
using testing::ScriptedHttpServer;
using testing::ScriptedReply;

constexpr int64_t kT0 = 1776672000LL * 1'000'000'000;  // 2026-04-20T08:00:00Z

std::unique_ptr<HttpClient> client_for(const ScriptedHttpServer& server) {
  ClientConfig config;
  EXPECT_TRUE(parse_server_url(server.url(), config).ok());
  config.source = "test";
  HttpOptions options;
  options.qps = 0;
  options.read_timeout = 5000ms;
  Result<std::unique_ptr<HttpClient>> client = HttpClient::create(config, options);
  EXPECT_TRUE(client.ok()) << client.message();
  return std::move(*client);
}

class Outcomes {
 public:
  void add(const actors::Outcome& o) {
    std::lock_guard lock(mutex_);
    outcomes_.push_back(o);
    changed_.notify_all();
  }
  bool wait_for(size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return outcomes_.size() >= n; });
  }
  std::vector<actors::Outcome> get() {
    std::lock_guard lock(mutex_);
    return outcomes_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<actors::Outcome> outcomes_;
};

struct Fixture {
  ScriptedHttpServer server;
  std::unique_ptr<HttpClient> client = client_for(server);
  Outcomes outcomes;
  int64_t now = kT0;

  EventRecorderOptions options() {
    EventRecorderOptions o;
    o.reporting_instance = "koordq-0_1234";
    o.now = [this] { return now; };
    o.on_outcome = [this](const actors::Outcome& outcome) { outcomes.add(outcome); };
    o.retry_interval = 10ms;
    return o;
  }
};

EventToRecord failed(const std::string& message, uint64_t seq, uint32_t index = 0) {
  EventToRecord e;
  e.event.involved_object = {"QueueUnit", "scheduling.x-k8s.io/v1alpha1", "team-a", "job-1", "u-1"};
  e.event.warning = true;
  e.event.reason = "FailedScheduling";
  e.event.message = message;
  e.seq = seq;
  e.name_index = index;
  e.decision_index = 3;
  e.write_index = 1;
  return e;
}

TEST(EventName, is_the_name_and_16_hex_digits_of_seq_times_256_plus_index) {
  EXPECT_EQ(event_name("job-1", 0x12, 3), "job-1.0000000000001203");
  EXPECT_EQ(event_name("q", 0, 0), "q.0000000000000000");
  EXPECT_EQ(event_name("q", 0xabcdef, 255), "q.00000000abcdefff");
}

TEST(EventRecorder, posts_a_first_occurrence_with_every_field) {
  Fixture f;
  f.server.script({{http_reply(201, R"({"metadata":{"resourceVersion":"42"},"count":1})")}});
  EventRecorder recorder(*f.client, f.options());
  recorder.record(failed("no quota left", 0x10, 2));
  ASSERT_TRUE(f.outcomes.wait_for(1));
  auto received = f.server.received();
  ASSERT_EQ(received.size(), 1u);
  EXPECT_EQ(received[0].method, "POST");
  EXPECT_EQ(received[0].target, "/api/v1/namespaces/team-a/events");
  EXPECT_EQ(received[0].headers["Content-Type"], "application/json");
  EXPECT_EQ(received[0].body,
            R"({"apiVersion":"v1","kind":"Event","metadata":{"name":"job-1.0000000000001002","namespace":"team-a"},)"
            R"("involvedObject":{"kind":"QueueUnit","namespace":"team-a","name":"job-1","uid":"u-1",)"
            R"("apiVersion":"scheduling.x-k8s.io/v1alpha1"},"reason":"FailedScheduling","message":"no quota left",)"
            R"("source":{"component":"koord-queue-controller"},"firstTimestamp":"2026-04-20T08:00:00Z",)"
            R"("lastTimestamp":"2026-04-20T08:00:00Z","count":1,"type":"Warning",)"
            R"("reportingComponent":"koord-queue-controller","reportingInstance":"koordq-0_1234"})");
  actors::Outcome o = f.outcomes.get()[0];
  EXPECT_EQ(o.decision_seq, 0x10u);
  EXPECT_EQ(o.decision_index, 3u);
  EXPECT_EQ(o.write_index, 1u);
  EXPECT_EQ(o.write_kind, actors::WriteKind::kEvent);
  EXPECT_EQ(o.result, actors::OutcomeResult::kSuccess);
  EXPECT_EQ(o.http_code, 201);
  EXPECT_EQ(o.resource_version, "42");
}

TEST(EventRecorder, an_object_without_namespace_gets_its_event_in_default) {
  Fixture f;
  f.server.script({{http_reply(201, "{}")}});
  EventRecorder recorder(*f.client, f.options());
  EventToRecord e = failed("m", 1);
  e.event.involved_object.namespace_.clear();
  recorder.record(e);
  ASSERT_TRUE(f.outcomes.wait_for(1));
  EXPECT_EQ(f.server.received()[0].target, "/api/v1/namespaces/default/events");
}

TEST(EventRecorder, a_repeat_is_a_patch_of_count_and_last_timestamp) {
  Fixture f;
  f.server.script({{http_reply(201, R"({"count":1})")}});
  f.server.script({{http_reply(200, R"({"metadata":{"resourceVersion":"43"},"count":2})")}});
  EventRecorder recorder(*f.client, f.options());
  recorder.record(failed("no quota left", 1));
  ASSERT_TRUE(f.outcomes.wait_for(1));
  f.now = kT0 + 65'000'000'000;
  recorder.record(failed("no quota left", 2));
  ASSERT_TRUE(f.outcomes.wait_for(2));
  auto received = f.server.received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[1].method, "PATCH");
  EXPECT_EQ(received[1].target, "/api/v1/namespaces/team-a/events/job-1.0000000000000100");
  EXPECT_EQ(received[1].headers["Content-Type"], "application/merge-patch+json");
  EXPECT_EQ(received[1].body, R"({"count":2,"lastTimestamp":"2026-04-20T08:01:05Z","message":"no quota left"})");
  EXPECT_EQ(f.outcomes.get()[1].resource_version, "43");
}

TEST(EventRecorder, a_patch_answered_404_is_posted_anew) {
  Fixture f;
  f.server.script({{http_reply(201, "{}")}});
  f.server.script({{http_reply(404, R"({"kind":"Status","reason":"NotFound"})")}});
  f.server.script({{http_reply(201, "{}")}});
  EventRecorder recorder(*f.client, f.options());
  recorder.record(failed("m", 1));
  ASSERT_TRUE(f.outcomes.wait_for(1));
  f.now += 1'000'000'000;
  recorder.record(failed("m", 2));
  ASSERT_TRUE(f.outcomes.wait_for(2));
  auto received = f.server.received();
  ASSERT_EQ(received.size(), 3u);
  EXPECT_EQ(received[1].method, "PATCH");
  EXPECT_EQ(received[2].method, "POST");
  EXPECT_NE(received[2].body.find(R"("name":"job-1.0000000000000100")"), std::string::npos) << received[2].body;
  EXPECT_NE(received[2].body.find(R"("count":2)"), std::string::npos) << received[2].body;
  EXPECT_NE(received[2].body.find(R"("firstTimestamp":"2026-04-20T08:00:00Z","lastTimestamp":"2026-04-20T08:00:01Z")"),
            std::string::npos)
      << received[2].body;
  EXPECT_EQ(f.outcomes.get()[1].result, actors::OutcomeResult::kSuccess);
}

TEST(EventRecorder, drops_what_the_rate_limit_refuses_without_an_outcome) {
  Fixture f;
  f.server.respond_with([](const testing::ReceivedRequest&) { return ScriptedReply{{http_reply(200, "{}")}}; });
  EventRecorder recorder(*f.client, f.options());
  for (int i = 0; i < 27; ++i) recorder.record(failed("same", 1 + i));
  EventToRecord other = failed("same", 100);
  other.event.involved_object.name = "job-2";
  other.event.involved_object.uid = "u-2";
  recorder.record(other);
  ASSERT_TRUE(f.outcomes.wait_for(26));
  recorder.stop();
  EXPECT_EQ(f.outcomes.get().size(), 26u) << "25 for job-1, 1 for job-2";
  auto received = f.server.received();
  ASSERT_EQ(received.size(), 26u);
  EXPECT_EQ(received[24].body, R"({"count":25,"lastTimestamp":"2026-04-20T08:00:00Z","message":"same"})");
  EXPECT_EQ(received[25].method, "POST");
  EXPECT_NE(received[25].body.find(R"("name":"job-2.)"), std::string::npos);
}

TEST(EventRecorder, the_tenth_different_message_is_recorded_combined) {
  Fixture f;
  f.server.respond_with([](const testing::ReceivedRequest&) { return ScriptedReply{{http_reply(201, "{}")}}; });
  EventRecorder recorder(*f.client, f.options());
  for (int i = 1; i <= 11; ++i) recorder.record(failed("failure " + std::to_string(i), i));
  ASSERT_TRUE(f.outcomes.wait_for(11));
  auto received = f.server.received();
  ASSERT_EQ(received.size(), 11u);
  EXPECT_EQ(received[9].method, "POST");
  EXPECT_NE(received[9].body.find(R"("message":"(combined from similar events): failure 10")"), std::string::npos)
      << received[9].body;
  EXPECT_EQ(received[10].method, "PATCH");
  EXPECT_EQ(received[10].target, "/api/v1/namespaces/team-a/events/job-1.0000000000000a00");
  EXPECT_EQ(
      received[10].body,
      R"({"count":2,"lastTimestamp":"2026-04-20T08:00:00Z","message":"(combined from similar events): failure 11"})");
}

TEST(EventRecorder, a_post_answered_409_is_dropped_without_retry) {
  Fixture f;
  f.server.script({{http_reply(409, R"({"kind":"Status","reason":"AlreadyExists"})")}});
  f.server.script({{http_reply(201, "{}")}});
  EventRecorder recorder(*f.client, f.options());
  recorder.record(failed("m", 1));
  recorder.record(failed("other", 2));
  ASSERT_TRUE(f.outcomes.wait_for(2));
  auto outcomes = f.outcomes.get();
  EXPECT_EQ(outcomes[0].result, actors::OutcomeResult::kConflict);
  EXPECT_EQ(outcomes[0].http_code, 409);
  EXPECT_EQ(outcomes[1].result, actors::OutcomeResult::kSuccess);
  EXPECT_EQ(f.server.received().size(), 2u);
}

TEST(EventRecorder, retries_unanswered_and_5xx_writes_then_succeeds) {
  Fixture f;
  f.server.script({{http_reply(503, "busy")}});
  f.server.script({{"", "garbage that is no HTTP\r\n\r\n"}, true});
  f.server.script({{http_reply(201, "{}")}});
  EventRecorder recorder(*f.client, f.options());
  recorder.record(failed("m", 1));
  ASSERT_TRUE(f.outcomes.wait_for(1));
  EXPECT_EQ(f.server.received().size(), 3u);
  EXPECT_EQ(f.outcomes.get()[0].result, actors::OutcomeResult::kSuccess);
}

TEST(EventRecorder, gives_up_after_max_retries_and_does_not_retry_other_errors) {
  Fixture f;
  f.server.respond_with([](const testing::ReceivedRequest& r) {
    const bool invalid = r.body.find("invalid") != std::string::npos;
    return ScriptedReply{{http_reply(invalid ? 422 : 500, "{}")}};
  });
  EventRecorderOptions options = f.options();
  options.max_retries = 2;
  EventRecorder recorder(*f.client, options);
  recorder.record(failed("m", 1));
  ASSERT_TRUE(f.outcomes.wait_for(1));
  EXPECT_EQ(f.server.received().size(), 3u) << "the first attempt and 2 retries";
  EXPECT_EQ(f.outcomes.get()[0].result, actors::OutcomeResult::kError);
  EXPECT_EQ(f.outcomes.get()[0].http_code, 500);
  recorder.record(failed("invalid", 2));
  ASSERT_TRUE(f.outcomes.wait_for(2));
  EXPECT_EQ(f.server.received().size(), 4u);
  EXPECT_EQ(f.outcomes.get()[1].http_code, 422);
}

TEST(EventRecorder, stop_ends_the_write_in_flight_and_drops_the_queue) {
  Fixture f;  // nothing scripted: the first request stays unanswered
  EventRecorder recorder(*f.client, f.options());
  recorder.record(failed("m", 1));
  recorder.record(failed("n", 2));
  ASSERT_TRUE(f.server.wait_for_requests(1));
  const auto start = std::chrono::steady_clock::now();
  recorder.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  recorder.record(failed("o", 3));
  recorder.stop();
  EXPECT_TRUE(f.outcomes.get().empty());
  EXPECT_EQ(f.server.received().size(), 1u);
}

// behaviour.md §19: a recorder of a reign that has ended sends nothing (and answers nothing); one
// of the current reign writes.
TEST(EventRecorder, sends_nothing_once_its_reign_of_the_write_fence_has_ended) {
  Fixture f;
  WriteFence fence;
  fence.open_indefinitely();
  EventRecorderOptions options = f.options();
  options.fence = &fence;
  EventRecorder old_reign(*f.client, options);
  fence.close();
  fence.open_indefinitely();
  old_reign.record(failed("no quota left", 0x10));
  std::this_thread::sleep_for(100ms);
  EXPECT_TRUE(f.server.received().empty());
  EXPECT_TRUE(f.outcomes.get().empty());

  f.server.script({{http_reply(201, "{}")}});
  EventRecorder current(*f.client, options);
  current.record(failed("no quota left", 0x11));
  ASSERT_TRUE(f.outcomes.wait_for(1));
  EXPECT_EQ(f.server.received().size(), 1u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
