// kube/writer: the request bodies of the leader's writes (behaviour.md §7.3, §14), the coalescing
// write queue of §7.6, and the writer's answers to 200/409/404/429/4xx against a scripted server.
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/time_units.hpp"
#include "kube/client/write_fence.hpp"
#include "kube/writer/api_writer.hpp"
#include "kube/writer/unit_write_queue.hpp"
#include "kube/writer/write_bodies.hpp"
#include "schema/json_encode.hpp"
#include "tests/support/scripted_http_server.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using ::testing::HasSubstr;
using testing::http_reply;
using testing::ScriptedHttpServer;

using base::kSecond;
constexpr int64_t kT0 = 1776672007LL * kSecond;  // 2026-04-20T08:00:07Z

actors::UnitRef unit_ref(const std::string& name = "job1") {
  return actors::UnitRef{"default", name, "uid-" + name, "team-a", "team-a"};
}

TEST(WriteBodies, an_admission_is_one_merge_patch_with_the_precondition_and_only_the_keys_it_sets) {
  actors::StatusPatch p;
  p.phase = "Dequeued";
  p.message = "Dequeued because schedule successfully";
  p.attempts = 3;
  p.last_update_time = kT0;
  p.last_allocate_time = kT0;
  p.admissions = std::vector<schema::Admission>{{"worker", 4, std::nullopt, 0, std::nullopt}};
  EXPECT_EQ(status_patch_body(p, "48213"),
            R"({"metadata":{"resourceVersion":"48213"},"status":{"phase":"Dequeued",)"
            R"("message":"Dequeued because schedule successfully","attempts":3,)"
            R"("lastUpdateTime":"2026-04-20T08:00:07Z","lastAllocateTime":"2026-04-20T08:00:07Z",)"
            R"("admissions":[{"name":"worker","replicas":4,"running":0}]}})");
  Request r = status_patch_request(unit_ref(), p, "48213");
  EXPECT_EQ(r.verb, Verb::kPatch);
  EXPECT_EQ(r.target, "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/queueunits/job1/status");
  EXPECT_EQ(r.content_type, "application/merge-patch+json");
  EXPECT_TRUE(r.has_precondition);
}

TEST(WriteBodies, a_failure_write_leaves_phase_and_admissions_alone_and_an_emptied_list_is_sent_empty) {
  actors::StatusPatch fail;
  fail.message = "limited quotaName:team-a, limited resKey:cpu,";
  fail.attempts = 2;
  fail.last_update_time = kT0;
  EXPECT_EQ(
      status_patch_body(fail, "7"),
      R"({"metadata":{"resourceVersion":"7"},"status":{"message":"limited quotaName:team-a, limited resKey:cpu,",)"
      R"("attempts":2,"lastUpdateTime":"2026-04-20T08:00:07Z"}})");
  actors::StatusPatch cleared;
  cleared.phase = "TimeoutBackoff";
  cleared.admissions = std::vector<schema::Admission>{};
  EXPECT_THAT(status_patch_body(cleared, "7"), HasSubstr(R"("admissions":[])"));
}

TEST(WriteBodies, spec_queue_and_the_queue_writes) {
  Request q = spec_queue_patch_request(unit_ref(), "team-a", "");
  EXPECT_EQ(q.target, "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/default/queueunits/job1");
  EXPECT_EQ(q.body, R"({"spec":{"queue":"team-a"}})");
  EXPECT_FALSE(q.has_precondition);

  schema::Queue create;
  create.spec.queue_policy = "Block";
  create.spec.priority = 1000;
  create.metadata.labels["quota.scheduling.koordinator.sh/parent"] = "root";
  Request c = queue_write_request("koord-queue", "team-a", create);
  EXPECT_EQ(c.verb, Verb::kPost);
  EXPECT_EQ(c.target, "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/koord-queue/queues");
  EXPECT_THAT(c.body, HasSubstr(R"("metadata":{"name":"team-a","namespace":"koord-queue","labels":)"));
  EXPECT_THAT(c.body, HasSubstr(R"("spec":{"queuePolicy":"Block","priority":1000})"));

  actors::QueuePatch patch;
  patch.queue_policy = "Priority";
  patch.labels["quota.scheduling.koordinator.sh/parent"] = std::nullopt;
  patch.annotations["quota-koord-queue-enable"] = "true";
  Request p = queue_write_request("koord-queue", "team-a", patch);
  EXPECT_EQ(p.target, "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/koord-queue/queues/team-a");
  EXPECT_EQ(p.body,
            R"({"spec":{"queuePolicy":"Priority"},"metadata":{"labels":)"
            R"({"quota.scheduling.koordinator.sh/parent":null},"annotations":{"quota-koord-queue-enable":"true"}}})");

  schema::QueueItemDetails details;
  details.active.push_back({"job2", "default", 20, 1});
  Request d = queue_write_request("koord-queue", "team-a", details);
  EXPECT_EQ(d.target, "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/koord-queue/queues/team-a/status");
  EXPECT_EQ(d.body, R"({"status":{"queueItemDetails":{"active":[{"name":"job2","namespace":"default",)"
                    R"("priority":20,"position":1}],"backoff":[]}}})");

  Request u =
      queue_write_request("koord-queue", "team-a", actors::UsageAnnotations{{"alibabacloud.com/queue-used", "{}"}});
  EXPECT_EQ(u.body, R"({"metadata":{"annotations":{"alibabacloud.com/queue-used":"{}"}}})");

  Request del = queue_write_request("koord-queue", "team-a", actors::QueueDelete{});
  EXPECT_EQ(del.verb, Verb::kDelete);
  EXPECT_EQ(del.target, "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/koord-queue/queues/team-a");
}

TEST(WriteBodies, every_write_that_can_race_carries_the_resource_version_precondition) {
  Request q = spec_queue_patch_request(unit_ref(), "team-a", "41");
  EXPECT_EQ(q.body, R"({"metadata":{"resourceVersion":"41"},"spec":{"queue":"team-a"}})");
  EXPECT_TRUE(q.has_precondition);

  schema::QueueItemDetails details;
  Request d = queue_write_request("koord-queue", "team-a", details, "77");
  EXPECT_EQ(d.body,
            R"({"metadata":{"resourceVersion":"77"},"status":{"queueItemDetails":{"active":[],"backoff":[]}}})");
  EXPECT_TRUE(d.has_precondition);

  Request u = queue_write_request("koord-queue", "team-a",
                                  actors::UsageAnnotations{{"alibabacloud.com/queue-used", "{}"}}, "77");
  EXPECT_EQ(u.body, R"({"metadata":{"resourceVersion":"77","annotations":{"alibabacloud.com/queue-used":"{}"}}})");
  EXPECT_TRUE(u.has_precondition);

  actors::QueuePatch patch;
  patch.queue_policy = "Priority";
  Request p = queue_write_request("koord-queue", "team-a", patch, "77");
  EXPECT_EQ(p.body, R"({"spec":{"queuePolicy":"Priority"},"metadata":{"resourceVersion":"77"}})");
  EXPECT_TRUE(p.has_precondition);

  Request del = queue_write_request("koord-queue", "team-a", actors::QueueDelete{}, "77");
  EXPECT_EQ(del.body, R"({"apiVersion":"v1","kind":"DeleteOptions","preconditions":{"resourceVersion":"77"}})");
  EXPECT_EQ(del.content_type, "application/json");

  Request c = queue_write_request("koord-queue", "team-a", schema::Queue{}, "77");
  EXPECT_FALSE(c.has_precondition) << "a create races by AlreadyExists";
  EXPECT_THAT(c.body, ::testing::Not(HasSubstr("77")));
}

bool eventually_true(const std::function<bool()>& condition) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!condition()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}

UnitWrite write_for(const std::string& name, bool changes_phase, bool failure = false, uint64_t seq = 1) {
  UnitWrite w;
  w.unit = unit_ref(name);
  w.decision_seq = seq;
  w.status = actors::StatusPatch{};
  w.status->message = name + "@" + std::to_string(seq);
  w.changes_phase = changes_phase;
  w.failure = failure;
  w.backoff_ns = 2 * kSecond;
  return w;
}

std::vector<std::string> drain(UnitWriteQueue& q, int64_t now) {
  std::vector<std::string> out;
  while (auto w = q.pop(now)) out.push_back(*w->status->message);
  return out;
}

TEST(UnitWriteQueue, latest_wins_and_phase_changes_go_before_message_only_writes) {
  UnitWriteQueue q;
  q.push(write_for("a", false, false, 1), kT0);
  q.push(write_for("b", true, false, 1), kT0);
  q.push(write_for("c", false, false, 1), kT0);
  q.push(write_for("a", false, false, 2), kT0);  // replaces a@1
  q.push(write_for("d", true, false, 1), kT0);
  EXPECT_EQ(q.size(), 4u);
  EXPECT_EQ(drain(q, kT0), (std::vector<std::string>{"b@1", "d@1", "c@1", "a@2"}));
  EXPECT_EQ(q.next_due(), std::nullopt);
}

TEST(UnitWriteQueue, a_failure_write_is_sent_at_most_once_per_backoff_period) {
  UnitWriteQueue q;
  q.push(write_for("a", false, true, 1), kT0);
  ASSERT_EQ(drain(q, kT0), std::vector<std::string>{"a@1"});
  q.failure_sent("default/a", kT0, 2 * kSecond);
  q.push(write_for("a", false, true, 2), kT0 + kSecond);
  q.push(write_for("a", false, true, 3), kT0 + kSecond);  // held writes coalesce
  EXPECT_TRUE(drain(q, kT0 + kSecond).empty());
  EXPECT_EQ(q.next_due(), kT0 + 2 * kSecond);
  EXPECT_EQ(drain(q, kT0 + 2 * kSecond), std::vector<std::string>{"a@3"});
}

TEST(UnitWriteQueue, a_write_of_the_other_class_replaces_a_held_failure_write_at_once) {
  UnitWriteQueue q;
  q.failure_sent("default/a", kT0, 20 * kSecond);
  q.push(write_for("a", false, true, 1), kT0);
  EXPECT_TRUE(drain(q, kT0).empty());
  q.push(write_for("a", true, false, 2), kT0);
  EXPECT_EQ(drain(q, kT0), std::vector<std::string>{"a@2"});
  q.push(write_for("a", false, true, 3), kT0);  // the limit started over with the admission
  EXPECT_EQ(drain(q, kT0), std::vector<std::string>{"a@3"});
}

TEST(UnitWriteQueue, failure_holds_are_forgotten_once_they_have_passed) {
  UnitWriteQueue q;
  // 1000 units each sent one failure write and were then deleted: nothing else is queued for them.
  for (int i = 0; i < 1000; ++i) q.failure_sent("default/gone-" + std::to_string(i), kT0 + i, 2 * kSecond);
  EXPECT_EQ(q.failure_holds(), 1000u);
  EXPECT_TRUE(drain(q, kT0 + 2 * kSecond + 499).empty());
  EXPECT_EQ(q.failure_holds(), 500u);  // the holds of gone-0 … gone-499 ended at or before now
  q.push(write_for("a", false, true, 1), kT0 + 3 * kSecond);
  EXPECT_EQ(q.failure_holds(), 0u);
  EXPECT_EQ(drain(q, kT0 + 3 * kSecond), std::vector<std::string>{"a@1"});
  // A hold renewed before it ends counts once and lasts until its new end.
  q.failure_sent("default/a", kT0 + 3 * kSecond, 2 * kSecond);
  q.failure_sent("default/a", kT0 + 4 * kSecond, 2 * kSecond);
  EXPECT_EQ(q.failure_holds(), 1u);
  q.push(write_for("a", false, true, 2), kT0 + 5 * kSecond);
  EXPECT_TRUE(drain(q, kT0 + 5 * kSecond).empty());
  EXPECT_EQ(q.failure_holds(), 1u);
  EXPECT_EQ(drain(q, kT0 + 6 * kSecond), std::vector<std::string>{"a@2"});
  EXPECT_EQ(q.failure_holds(), 0u);
}

TEST(UnitWriteQueue, a_retry_waits_and_loses_to_a_newer_write) {
  UnitWriteQueue q;
  q.retry_at(write_for("a", true, false, 1), kT0 + kSecond);
  EXPECT_TRUE(drain(q, kT0).empty());
  EXPECT_EQ(drain(q, kT0 + kSecond), std::vector<std::string>{"a@1"});
  q.push(write_for("b", true, false, 2), kT0);
  q.retry_at(write_for("b", true, false, 1), kT0);  // b@1 came back from a 503 after b@2 was queued
  EXPECT_EQ(drain(q, kT0 + kSecond), std::vector<std::string>{"b@2"});
}

TEST(UnitWriteQueue, a_replaced_write_hands_its_spec_queue_patch_to_the_newer_one) {
  UnitWriteQueue q;
  UnitWrite admission = write_for("a", true, false, 1);
  admission.spec_queue = "team-a";
  admission.spec_queue_seq = 1;
  admission.spec_queue_index = 3;
  q.push(admission, kT0);
  q.push(write_for("a", false, false, 2), kT0);  // a message-only write decided before it was sent
  auto sent = q.pop(kT0);
  ASSERT_TRUE(sent.has_value());
  EXPECT_EQ(*sent->status->message, "a@2");
  EXPECT_EQ(sent->spec_queue, "team-a");
  EXPECT_EQ(sent->spec_queue_seq, 1u);
  EXPECT_EQ(sent->spec_queue_index, 3u);
  // A retry that lost to a newer write hands it over too; a unit of another uid takes nothing.
  q.push(write_for("a", false, false, 3), kT0);
  q.retry_at(*sent, kT0);
  sent = q.pop(kT0);
  ASSERT_TRUE(sent.has_value());
  EXPECT_EQ(*sent->status->message, "a@3");
  EXPECT_EQ(sent->spec_queue, "team-a");
  UnitWrite recreated = write_for("a", false, false, 4);
  recreated.unit.uid = "another-uid";
  q.push(admission, kT0);
  q.push(recreated, kT0);
  sent = q.pop(kT0);
  ASSERT_TRUE(sent.has_value());
  EXPECT_FALSE(sent->spec_queue.has_value());
}

// The writer against a scripted API server.
class ApiWriterTest : public ::testing::Test {
 protected:
  std::unique_ptr<HttpClient> client() {
    ClientConfig config;
    EXPECT_TRUE(parse_server_url(server_.url(), config).ok());
    config.source = "test";
    HttpOptions options;
    options.qps = 0;
    options.retry.max_attempts = 1;
    auto c = HttpClient::create(config, options);
    EXPECT_TRUE(c.ok()) << c.message();
    return std::move(*c);
  }
  ApiWriterOptions options() {
    ApiWriterOptions o;
    o.now = [] {
      return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count();
    };
    o.retry_interval_ns = 10'000'000;  // 10 ms
    o.on_outcome = [this](const actors::Outcome& out) {
      std::lock_guard lock(mu_);
      outcomes_.push_back(out);
      cv_.notify_all();
    };
    return o;
  }
  std::vector<actors::Outcome> wait_outcomes(size_t n) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, std::chrono::seconds(10), [&] { return outcomes_.size() >= n; });
    return outcomes_;
  }
  static std::string unit_json(const std::string& rv, const std::string& phase, int64_t priority = 0) {
    schema::QueueUnit u;
    u.metadata.name = "job1";
    u.metadata.namespace_ = "default";
    u.metadata.uid = "uid-job1";
    u.metadata.resource_version = rv;
    u.status.phase = phase;
    if (priority != 0) u.spec.priority = static_cast<int32_t>(priority);
    return schema::encode_json(u);
  }
  UnitWrite admission() {
    UnitWrite w = write_for("job1", true);
    w.status->phase = "Dequeued";
    w.status->resource_version = "10";
    w.observed_phase = "Enqueued";
    w.spec_queue = "team-a";
    return w;
  }

  ScriptedHttpServer server_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<actors::Outcome> outcomes_;
};

TEST_F(ApiWriterTest, a_landed_admission_reports_its_resource_version_then_patches_spec_queue) {
  server_.script({{http_reply(200, unit_json("11", "Dequeued"))}});
  server_.script({{http_reply(200, unit_json("12", "Dequeued"))}});
  auto c = client();
  ApiWriter writer(*c, options());
  writer.submit(admission());
  auto out = wait_outcomes(2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].write_kind, actors::WriteKind::kStatusPatch);
  EXPECT_EQ(out[0].result, actors::OutcomeResult::kSuccess);
  EXPECT_EQ(out[0].resource_version, "11");
  EXPECT_EQ(out[1].write_kind, actors::WriteKind::kSpecQueuePatch);
  auto received = server_.received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].method, "PATCH");
  EXPECT_THAT(received[0].body, HasSubstr(R"("resourceVersion":"10")"));
  EXPECT_EQ(received[1].body, R"({"metadata":{"resourceVersion":"11"},"spec":{"queue":"team-a"}})")
      << "on the object the status write produced";
}

TEST_F(ApiWriterTest, a_conflict_on_a_unit_that_still_waits_repeats_the_write_on_the_fresh_object) {
  server_.script({{http_reply(409, R"({"kind":"Status","code":409})")}});
  server_.script({{http_reply(200, unit_json("15", ""))}});  // GET: still Enqueued, same spec
  server_.script({{http_reply(200, unit_json("16", "Dequeued"))}});
  auto c = client();
  auto o = options();
  ApiWriter writer(*c, o);
  UnitWrite w = admission();
  w.spec_queue.reset();
  writer.submit(std::move(w));
  auto out = wait_outcomes(1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].result, actors::OutcomeResult::kSuccess);
  EXPECT_EQ(out[0].resource_version, "16");
  auto received = server_.received();
  ASSERT_EQ(received.size(), 3u);
  EXPECT_EQ(received[1].method, "GET");
  EXPECT_THAT(received[2].body, HasSubstr(R"("resourceVersion":"15")"));
}

TEST_F(ApiWriterTest, a_conflict_on_a_changed_unit_is_abandoned_and_a_missing_unit_is_not_found) {
  server_.script({{http_reply(409, "{}")}});
  server_.script({{http_reply(200, unit_json("15", "", 7))}});  // the spec changed
  auto c = client();
  ApiWriter writer(*c, options());
  UnitWrite w = admission();
  w.spec_queue.reset();
  writer.submit(w);
  auto out = wait_outcomes(1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].result, actors::OutcomeResult::kConflict);

  server_.script({{http_reply(404, "{}")}});
  w.decision_seq = 2;
  writer.submit(w);
  out = wait_outcomes(2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].result, actors::OutcomeResult::kNotFound);
  EXPECT_EQ(out[1].decision_seq, 2u);
}

TEST_F(ApiWriterTest, a_server_error_is_retried_and_another_client_error_is_final) {
  server_.script({{http_reply(503, "{}")}});
  server_.script({{http_reply(429, "{}")}});
  server_.script({{http_reply(200, unit_json("11", "Dequeued"))}});
  server_.script({{http_reply(422, R"({"kind":"Status","code":422})")}});
  auto c = client();
  ApiWriter writer(*c, options());
  UnitWrite w = admission();
  w.spec_queue.reset();
  writer.submit(w);
  auto out = wait_outcomes(1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].result, actors::OutcomeResult::kSuccess);
  EXPECT_EQ(writer.stats().retries.load(), 2u);
  w.decision_seq = 2;
  writer.submit(w);
  out = wait_outcomes(2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].result, actors::OutcomeResult::kError);
  EXPECT_EQ(out[1].http_code, 422);
}

TEST_F(ApiWriterTest, a_spec_queue_patch_answered_503_is_sent_again_without_the_landed_status) {
  server_.script({{http_reply(200, unit_json("11", "Dequeued"))}});
  server_.script({{http_reply(503, "{}")}});
  server_.script({{http_reply(200, unit_json("12", "Dequeued"))}});
  auto c = client();
  ApiWriter writer(*c, options());
  UnitWrite w = admission();
  w.spec_queue_seq = 7;
  w.spec_queue_index = 2;
  writer.submit(w);
  auto out = wait_outcomes(2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].write_kind, actors::WriteKind::kStatusPatch);
  EXPECT_EQ(out[1].write_kind, actors::WriteKind::kSpecQueuePatch);
  EXPECT_EQ(out[1].result, actors::OutcomeResult::kSuccess);
  EXPECT_EQ(out[1].decision_seq, 7u);
  EXPECT_EQ(out[1].decision_index, 2u);
  auto received = server_.received();
  ASSERT_EQ(received.size(), 3u);
  EXPECT_THAT(received[0].body, HasSubstr("status"));
  EXPECT_EQ(received[1].body, R"({"metadata":{"resourceVersion":"11"},"spec":{"queue":"team-a"}})");
  EXPECT_EQ(received[2].body, R"({"metadata":{"resourceVersion":"11"},"spec":{"queue":"team-a"}})");
}

TEST_F(ApiWriterTest, a_spec_queue_conflict_repeats_on_the_fresh_unit_while_spec_and_labels_are_as_seen) {
  server_.script({{http_reply(200, unit_json("11", "Dequeued"))}});
  server_.script({{http_reply(409, R"({"kind":"Status","code":409})")}});
  server_.script({{http_reply(200, unit_json("13", "Dequeued"))}});  // GET: only the status moved on
  server_.script({{http_reply(200, unit_json("14", "Dequeued"))}});
  auto c = client();
  ApiWriter writer(*c, options());
  writer.submit(admission());
  auto out = wait_outcomes(2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].write_kind, actors::WriteKind::kSpecQueuePatch);
  EXPECT_EQ(out[1].result, actors::OutcomeResult::kSuccess);
  EXPECT_EQ(out[1].resource_version, "14");
  auto received = server_.received();
  ASSERT_EQ(received.size(), 4u);
  EXPECT_EQ(received[2].method, "GET");
  EXPECT_EQ(received[3].body, R"({"metadata":{"resourceVersion":"13"},"spec":{"queue":"team-a"}})");
  EXPECT_EQ(writer.stats().repeated.load(), 1u);
}

TEST_F(ApiWriterTest, a_spec_queue_conflict_on_a_changed_spec_is_abandoned) {
  server_.script({{http_reply(409, R"({"kind":"Status","code":409})")}});
  server_.script({{http_reply(200, unit_json("13", "Dequeued", 9))}});  // GET: the spec changed
  auto c = client();
  ApiWriter writer(*c, options());
  UnitWrite w = admission();
  w.status.reset();  // spec.queue alone, on the decision's view of the unit
  w.resource_version = "10";
  writer.submit(w);
  auto out = wait_outcomes(1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].write_kind, actors::WriteKind::kSpecQueuePatch);
  EXPECT_EQ(out[0].result, actors::OutcomeResult::kConflict);
  auto received = server_.received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].body, R"({"metadata":{"resourceVersion":"10"},"spec":{"queue":"team-a"}})");
}

TEST_F(ApiWriterTest, a_spec_queue_patch_behind_a_failed_status_write_is_answered_unknown) {
  server_.script({{http_reply(404, R"({"kind":"Status","code":404})")}});
  auto c = client();
  ApiWriter writer(*c, options());
  UnitWrite w = admission();
  w.spec_queue_seq = 5;
  writer.submit(w);
  auto out = wait_outcomes(2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].write_kind, actors::WriteKind::kStatusPatch);
  EXPECT_EQ(out[0].result, actors::OutcomeResult::kNotFound);
  EXPECT_EQ(out[1].write_kind, actors::WriteKind::kSpecQueuePatch);
  EXPECT_EQ(out[1].result, actors::OutcomeResult::kUnknown);
  EXPECT_EQ(out[1].decision_seq, 5u);
  EXPECT_EQ(server_.received().size(), 1u);  // the spec.queue patch was not sent
}

std::string queue_json(const std::string& rv) {
  return R"({"metadata":{"name":"team-a","namespace":"koord-queue","resourceVersion":")" + rv + R"("}})";
}

TEST_F(ApiWriterTest, queue_patches_chain_their_own_resource_versions_and_repeat_on_a_fresh_queue_after_a_conflict) {
  server_.script({{http_reply(200, queue_json("51"))}});
  server_.script({{http_reply(200, queue_json("52"))}});
  server_.script({{http_reply(409, R"({"kind":"Status","code":409})")}});
  server_.script({{http_reply(200, queue_json("60"))}});  // GET: someone else wrote it
  server_.script({{http_reply(200, queue_json("61"))}});
  auto c = client();
  ApiWriter writer(*c, options());
  const actors::UsageAnnotations usage{{"alibabacloud.com/queue-used", "{}"}};
  // One round's two writes of the same Queue, both decided on resourceVersion 50.
  writer.submit(QueueWriteJob{"team-a", usage, "50", 5, 1});
  writer.submit(QueueWriteJob{"team-a", schema::QueueItemDetails{}, "50", 5, 2});
  auto out = wait_outcomes(2);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[1].result, actors::OutcomeResult::kSuccess);
  // A later round, still on 51 (the watch has shown the first write only), meets a conflict.
  writer.submit(QueueWriteJob{"team-a", usage, "51", 6, 1});
  out = wait_outcomes(3);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].result, actors::OutcomeResult::kSuccess);
  EXPECT_EQ(out[2].resource_version, "61");
  auto received = server_.received();
  ASSERT_EQ(received.size(), 5u);
  EXPECT_THAT(received[0].body, HasSubstr(R"("resourceVersion":"50")"));
  EXPECT_THAT(received[1].body, HasSubstr(R"("resourceVersion":"51")")) << "past the writer's own landed write";
  EXPECT_THAT(received[2].body, HasSubstr(R"("resourceVersion":"52")"));
  EXPECT_EQ(received[3].method, "GET");
  EXPECT_EQ(received[3].target, "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/koord-queue/queues/team-a");
  EXPECT_THAT(received[4].body, HasSubstr(R"("resourceVersion":"60")"));
}

TEST_F(ApiWriterTest, queue_writes_report_every_answer) {
  server_.script({{http_reply(409, R"({"kind":"Status","reason":"AlreadyExists","code":409})")}});
  auto c = client();
  ApiWriter writer(*c, options());
  writer.submit(QueueWriteJob{"team-a", schema::Queue{}, "", 5, 1});
  auto out = wait_outcomes(1);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].write_kind, actors::WriteKind::kQueueWrite);
  EXPECT_EQ(out[0].result, actors::OutcomeResult::kConflict);
  EXPECT_EQ(out[0].decision_seq, 5u);
  EXPECT_EQ(out[0].decision_index, 1u);
  EXPECT_EQ(std::get<actors::QueueRef>(out[0].target).name, "team-a");
}

// §19: the writer's fence. A writer made in a reign whose renewal is overdue sends nothing, holds
// its writes (they leave once a renewal opens the fence again), and drops them all once the reign
// has ended, even when the next reign opens the fence.
struct SteppedClock {
  std::atomic<int64_t> ns{5'000'000'000};
  WriteFence::Clock::time_point now() const {
    return WriteFence::Clock::time_point(std::chrono::nanoseconds(ns.load()));
  }
};

TEST_F(ApiWriterTest, queued_writes_behind_an_expired_fence_send_nothing_and_leave_after_a_renewal) {
  SteppedClock clock;
  WriteFence fence([&clock] { return clock.now(); });
  fence.open_until(clock.now() + std::chrono::seconds(10));
  clock.ns += 10'000'000'000;  // exactly renew time + renew deadline
  auto c = client();
  auto o = options();
  o.fence = &fence;
  ::testing::internal::CaptureStderr();
  ApiWriter writer(*c, o);
  writer.submit(admission());
  UnitWrite second = write_for("job2", true);
  second.status->resource_version = "20";
  writer.submit(second);
  writer.submit(QueueWriteJob{"team-a", actors::UsageAnnotations{{"alibabacloud.com/queue-used", "{}"}}, "", 5, 1});
  ASSERT_TRUE(eventually_true([&] { return writer.stats().fenced.load() >= 4; }));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(server_.received().empty()) << "nothing left after the fence's deadline";
  EXPECT_TRUE(wait_outcomes(0).empty());
  EXPECT_TRUE(eventually_true([&] { return writer.pending() == 3u; })) << "held, as a retry waits";

  for (int i = 0; i < 4; ++i) server_.script({{http_reply(200, unit_json("30", "Dequeued"))}});
  fence.open_until(clock.now() + std::chrono::seconds(10));  // the lease was renewed after all
  auto out = wait_outcomes(4);
  EXPECT_EQ(out.size(), 4u);
  EXPECT_EQ(server_.received().size(), 4u);
  EXPECT_THAT(::testing::internal::GetCapturedStderr(),
              HasSubstr("API writes held back by the leadership fence: PATCH "));
}

TEST_F(ApiWriterTest, once_the_reign_ends_queued_writes_are_dropped_unsent_even_when_the_next_reign_opens) {
  SteppedClock clock;
  WriteFence fence([&clock] { return clock.now(); });
  fence.open_until(clock.now() + std::chrono::seconds(10));
  auto c = client();
  auto o = options();
  o.fence = &fence;
  ::testing::internal::CaptureStderr();
  ApiWriter writer(*c, o);
  fence.close();  // lost, before the writes came
  fence.open_indefinitely();
  writer.submit(admission());
  writer.submit(QueueWriteJob{"team-a", schema::Queue{}, "", 5, 1});
  ASSERT_TRUE(eventually_true([&] { return writer.pending() == 0 && writer.stats().fenced.load() >= 1; }));
  writer.submit(admission());
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_TRUE(server_.received().empty());
  EXPECT_TRUE(wait_outcomes(0).empty()) << "no outcome: as with stop(), the next start answers unknown";
  EXPECT_EQ(writer.pending(), 0u);
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), HasSubstr("queued API writes dropped unsent"));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
