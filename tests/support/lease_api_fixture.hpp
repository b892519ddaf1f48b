// What the elector's tests share (kube/leader): FakeApi keeps Leases (with resourceVersion
// preconditions) and koordq's Pod as the API server does, behind a scripted HTTP server; Events
// records the elector's callbacks; Fixture joins them with a client and a clock the test advances.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
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

namespace koordq::kube::lease_fixture {

using namespace std::chrono_literals;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::ReceivedRequest;
using testing::ScriptedHttpServer;
using testing::ScriptedReply;

using base::kSecond;
inline constexpr int64_t kT0 = 1776672000LL * kSecond;  // 2026-04-20T08:00:00Z
inline const std::string kLeasePath = "/apis/coordination.k8s.io/v1/namespaces/koord-queue/leases/koordq";
inline const std::string kLegacyPath = "/apis/coordination.k8s.io/v1/namespaces/default/leases/example-lease";
inline const std::string kPodPath = "/api/v1/namespaces/koord-queue/pods/koordq-0";

inline bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = 10s) {
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

inline LeaseRecord held_by(const std::string& holder, int64_t duration_seconds = 15, int64_t transitions = 0) {
  return {holder, duration_seconds, "2026-04-20T07:00:00.000000Z", "2026-04-20T07:59:59.000000Z", transitions};
}

}  // namespace koordq::kube::lease_fixture
