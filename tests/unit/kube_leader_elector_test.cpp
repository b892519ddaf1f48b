// kube/leader's elector against a local server holding Leases and a Pod (behaviour.md §19):
// acquiring a missing Lease, renewing, following another holder until its record expires by the
// elector's own clock, losing on failed renewals and to another holder, the legacy-lease guard
// (held, expired, missing, empty, unreadable), release and resume, the leader label and its
// failure, stop, --leader-elect=false.
#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "base/time_units.hpp"
#include "kube/leader/leader_elector.hpp"
#include "kube/leader/lease_record.hpp"
#include "tests/support/scripted_http_server.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::ReceivedRequest;
using testing::ScriptedHttpServer;
using testing::ScriptedReply;

using base::kSecond;
constexpr int64_t kT0 = 1776672000LL * kSecond;  // 2026-04-20T08:00:00Z
const std::string kLeasePath = "/apis/coordination.k8s.io/v1/namespaces/koord-queue/leases/koordq";
const std::string kLegacyPath = "/apis/coordination.k8s.io/v1/namespaces/default/leases/example-lease";
const std::string kPodPath = "/api/v1/namespaces/koord-queue/pods/koordq-0";

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = 10s) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (!condition()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

// Leases (with resourceVersion preconditions) and koordq's Pod, as the API server keeps them.
class FakeApi {
 public:
  explicit FakeApi(ScriptedHttpServer& server) {
    server.respond_with([this](const ReceivedRequest& r) { return ScriptedReply{{answer(r)}}; });
  }

  void set_lease(const std::string& path, const LeaseRecord& record) {
    std::lock_guard lock(mutex_);
    leases_[path] = {record, ++rv_};
  }
  std::optional<LeaseRecord> lease(const std::string& path) {
    std::lock_guard lock(mutex_);
    auto found = leases_.find(path);
    if (found == leases_.end()) return std::nullopt;
    return found->second.first;
  }
  void delete_lease(const std::string& path) {
    std::lock_guard lock(mutex_);
    leases_.erase(path);
  }
  // Answers with this status instead (0: normally).
  void fail(const std::string& method_and_path, int status) {
    std::lock_guard lock(mutex_);
    failures_[method_and_path] = status;
  }
  void set_pod_label(bool labelled) {
    std::lock_guard lock(mutex_);
    pod_labelled_ = labelled;
  }
  bool pod_labelled() {
    std::lock_guard lock(mutex_);
    return pod_labelled_;
  }
  // "METHOD path" of every request, and the bodies of some.
  std::vector<std::string> calls() {
    std::lock_guard lock(mutex_);
    return calls_;
  }
  size_t count(const std::string& call) {
    std::lock_guard lock(mutex_);
    return std::count(calls_.begin(), calls_.end(), call);
  }
  std::vector<std::string> bodies(const std::string& call) {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (size_t i = 0; i < calls_.size(); ++i) {
      if (calls_[i] == call) out.push_back(bodies_[i]);
    }
    return out;
  }

 private:
  std::string lease_json(const std::string& path, const std::pair<LeaseRecord, int64_t>& stored) {
    const std::string name = path.substr(path.rfind('/') + 1);
    Result<std::string> body =
        lease_update_body(R"({"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":")" + name +
                              R"(","resourceVersion":")" + std::to_string(stored.second) + R"("}})",
                          stored.first);
    return *body;
  }

  std::string answer(const ReceivedRequest& r) {
    std::lock_guard lock(mutex_);
    const std::string call = r.method + " " + r.target;
    calls_.push_back(call);
    bodies_.push_back(r.body);
    if (auto failure = failures_.find(call); failure != failures_.end() && failure->second != 0) {
      return http_reply(failure->second, R"({"kind":"Status","code":)" + std::to_string(failure->second) + "}");
    }
    if (r.target == kPodPath) {
      if (r.method == "PATCH") pod_labelled_ = r.body.find("\"true\"") != std::string::npos;
      return http_reply(200, pod_labelled_ ? R"({"metadata":{"labels":{"koord-queue-leader":"true"}}})"
                                           : R"({"metadata":{"labels":{"app":"koordq"}}})");
    }
    if (r.method == "POST" && r.target == "/apis/coordination.k8s.io/v1/namespaces/koord-queue/leases") {
      Result<FetchedLease> sent = parse_lease(r.body);
      if (!sent.ok() || leases_.count(kLeasePath)) return http_reply(409, R"({"reason":"AlreadyExists"})");
      leases_[kLeasePath] = {sent->record, ++rv_};
      return http_reply(201, lease_json(kLeasePath, leases_[kLeasePath]));
    }
    auto found = leases_.find(r.target);
    if (found == leases_.end()) return http_reply(404, R"({"reason":"NotFound"})");
    if (r.method == "GET") return http_reply(200, lease_json(r.target, found->second));
    if (r.method == "PUT") {
      Result<FetchedLease> sent = parse_lease(r.body);
      if (!sent.ok() || sent->resource_version != std::to_string(found->second.second)) {
        return http_reply(409, R"({"reason":"Conflict"})");
      }
      found->second = {sent->record, ++rv_};
      return http_reply(200, lease_json(r.target, found->second));
    }
    return http_reply(405, "{}");
  }

  std::mutex mutex_;
  std::map<std::string, std::pair<LeaseRecord, int64_t>> leases_;
  std::map<std::string, int> failures_;
  bool pod_labelled_ = false;
  int64_t rv_ = 100;
  std::vector<std::string> calls_;
  std::vector<std::string> bodies_;
};

struct Events {
  std::atomic<int> started{0}, stopped{0};
  std::mutex mutex;
  std::vector<std::string> new_leaders, fatal;

  LeaderCallbacks callbacks() {
    LeaderCallbacks c;
    c.on_started_leading = [this] { ++started; };
    c.on_stopped_leading = [this] { ++stopped; };
    c.on_new_leader = [this](const std::string& id) {
      std::lock_guard lock(mutex);
      new_leaders.push_back(id);
    };
    c.on_fatal = [this](const std::string& why) {
      std::lock_guard lock(mutex);
      fatal.push_back(why);
    };
    return c;
  }
  std::vector<std::string> leaders() {
    std::lock_guard lock(mutex);
    return new_leaders;
  }
};

struct Fixture {
  ScriptedHttpServer server;
  FakeApi api{server};
  std::unique_ptr<HttpClient> client;
  std::atomic<int64_t> clock{kT0};
  Events events;

  Fixture() {
    ClientConfig config;
    EXPECT_TRUE(parse_server_url(server.url(), config).ok());
    config.source = "test";
    HttpOptions options;
    options.qps = 0;
    options.retry.max_attempts = 1;
    Result<std::unique_ptr<HttpClient>> created = HttpClient::create(config, options);
    EXPECT_TRUE(created.ok()) << created.message();
    client = std::move(*created);
  }

  // A fake clock (advanced by the test) unless `real_clock`.
  LeaderElectionOptions options(bool real_clock = false) {
    LeaderElectionOptions o;
    o.identity = "koordq-0_1111";
    o.pod_namespace = "koord-queue";
    o.pod_name = "koordq-0";
    o.retry_period = 10ms;
    o.label_retry_interval = 10ms;
    if (!real_clock) o.now = [this] { return clock.load(); };
    return o;
  }
};

LeaseRecord held_by(const std::string& holder, int64_t duration_seconds = 15, int64_t transitions = 0) {
  return {holder, duration_seconds, "2026-04-20T07:00:00.000000Z", "2026-04-20T07:59:59.000000Z", transitions};
}

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

// §19: the writers' fence follows the Lease. Opened on acquiring until the attempt's start + renew
// deadline (by the monotonic clock), moved on by each renewal, closed at once by a loss, release()
// or stop(); with --leader-elect=false open for the whole reign.
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
