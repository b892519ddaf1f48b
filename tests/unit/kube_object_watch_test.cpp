// kube/client's watch of one named object (the front-proxy ConfigMap of behaviour.md §16.1)
// against a local scripted server: the first GET on the caller's thread, each new version from the
// WATCH (by name, from the GET's resourceVersion) once, resumed from the last bookmark when the
// server ends it, read again after a 410, kept after a deletion, and retried after errors.
#include <chrono>
#include <condition_variable>
#include <mutex>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/client/http_client.hpp"
#include "kube/client/object_watch.hpp"
#include "tests/support/scripted_kube_client.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using namespace std::chrono_literals;
using testing::chunk;
using testing::chunked_header;
using ::testing::HasSubstr;
using testing::http_reply;
using testing::kLastChunk;
using testing::ScriptedHttpServer;

const std::string kCollection = "/api/v1/namespaces/kube-system/configmaps";
const std::string kName = "extension-apiserver-authentication";
const std::string kWatch = kCollection +
                           "?fieldSelector=metadata.name%3Dextension-apiserver-authentication&watch=true&"
                           "allowWatchBookmarks=true&timeoutSeconds=30&resourceVersion=";

std::string configmap(const std::string& rv, const std::string& value) {
  return R"({"kind":"ConfigMap","metadata":{"name":"extension-apiserver-authentication","resourceVersion":")" + rv +
         R"("},"data":{"k":")" + value + R"("}})";
}
std::string event(const std::string& type, const std::string& object) {
  return R"({"type":")" + type + R"(","object":)" + object + "}\n";
}

std::unique_ptr<HttpClient> client_for(const ScriptedHttpServer& server) {
  HttpOptions options;
  options.qps = 0;
  options.retry.max_attempts = 1;
  options.read_timeout = 5000ms;
  options.connect_timeout = 2000ms;
  return testing::scripted_client(server, options);
}

// What the watch passed on, and what it reported.
class Seen {
 public:
  ObjectWatchOptions options() {
    ObjectWatchOptions o;
    o.collection = kCollection;
    o.name = kName;
    o.watch_timeout = 30s;
    o.backoff_base = 1ms;
    o.backoff_max = 5ms;
    o.on_object = [this](std::string_view json) { add(objects_, std::string(json)); };
    o.on_problem = [this](const std::string& message) { add(problems_, message); };
    return o;
  }
  bool wait_for_objects(size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return objects_.size() >= n; });
  }
  bool wait_for_problems(size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return problems_.size() >= n; });
  }
  std::vector<std::string> objects() {
    std::lock_guard lock(mutex_);
    return objects_;
  }
  std::vector<std::string> problems() {
    std::lock_guard lock(mutex_);
    return problems_;
  }

 private:
  void add(std::vector<std::string>& to, std::string line) {
    std::lock_guard lock(mutex_);
    to.push_back(std::move(line));
    changed_.notify_all();
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> objects_;
  std::vector<std::string> problems_;
};

std::vector<std::string> targets(const ScriptedHttpServer& server) {
  std::vector<std::string> out;
  for (const auto& r : server.received()) out.push_back(r.target);
  return out;
}

TEST(ObjectWatch, the_object_then_each_new_version_once_resumed_from_the_last_bookmark) {
  ScriptedHttpServer server;
  server.script({{http_reply(200, configmap("5", "one"))}});
  server.script(
      {{chunked_header(), chunk(event("ADDED", configmap("5", "one"))), chunk(event("MODIFIED", configmap("6", "two"))),
        chunk(event("BOOKMARK", R"({"kind":"ConfigMap","metadata":{"resourceVersion":"7"}})")), kLastChunk}});
  auto client = client_for(server);
  Seen seen;
  ObjectWatch watch(*client, seen.options());
  ASSERT_TRUE(watch.start().ok());
  EXPECT_EQ(seen.objects(), std::vector<std::string>{configmap("5", "one")});  // before start() returned
  ASSERT_TRUE(seen.wait_for_objects(2));
  ASSERT_TRUE(server.wait_for_requests(3));
  watch.stop();
  EXPECT_EQ(seen.objects(), (std::vector<std::string>{configmap("5", "one"), configmap("6", "two")}));
  EXPECT_EQ(targets(server), (std::vector<std::string>{kCollection + "/" + kName, kWatch + "5", kWatch + "7"}));
  EXPECT_EQ(watch.gets(), 1u);
}

TEST(ObjectWatch, a_410_reads_the_object_again_and_a_deletion_keeps_the_last_version) {
  ScriptedHttpServer server;
  server.script({{http_reply(200, configmap("5", "one"))}});
  server.script(
      {{chunked_header(), chunk(event("ERROR", R"({"kind":"Status","code":410,"reason":"Expired"})")), kLastChunk}});
  server.script({{http_reply(200, configmap("9", "nine"))}});
  server.script({{chunked_header(), chunk(event("DELETED", configmap("10", "nine"))), kLastChunk}});
  server.script({{http_reply(404, R"({"kind":"Status","code":404})")}});
  server.script({{http_reply(200, configmap("9", "nine"))}});
  auto client = client_for(server);
  Seen seen;
  ObjectWatch watch(*client, seen.options());
  ASSERT_TRUE(watch.start().ok());
  ASSERT_TRUE(server.wait_for_requests(7));
  watch.stop();
  // Version 9, read twice, is passed on once; the deletion passes nothing on.
  EXPECT_EQ(seen.objects(), (std::vector<std::string>{configmap("5", "one"), configmap("9", "nine")}));
  EXPECT_EQ(targets(server),
            (std::vector<std::string>{kCollection + "/" + kName, kWatch + "5", kCollection + "/" + kName, kWatch + "9",
                                      kCollection + "/" + kName, kCollection + "/" + kName, kWatch + "9"}));
  const auto problems = seen.problems();
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_THAT(problems[0], HasSubstr("deleted; the last version read stays in use"));
  EXPECT_THAT(problems[1], HasSubstr("not found"));
}

TEST(ObjectWatch, a_failed_first_get_is_reported_by_start_and_retried) {
  ScriptedHttpServer server;
  server.script({{http_reply(500, "boom")}});
  server.script({{http_reply(200, configmap("5", "one"))}});
  auto client = client_for(server);
  Seen seen;
  ObjectWatch watch(*client, seen.options());
  const Status started = watch.start();
  ASSERT_FALSE(started.ok());
  EXPECT_THAT(started.message(), HasSubstr("HTTP 500: boom"));
  ASSERT_TRUE(seen.wait_for_objects(1));
  ASSERT_TRUE(server.wait_for_requests(3));
  watch.stop();
  EXPECT_EQ(seen.objects(), std::vector<std::string>{configmap("5", "one")});
  EXPECT_EQ(targets(server)[2], kWatch + "5");
}

TEST(ObjectWatch, an_error_event_other_than_410_is_reported_and_the_object_read_again) {
  ScriptedHttpServer server;
  server.script({{http_reply(200, configmap("5", "one"))}});
  server.script(
      {{chunked_header(), chunk(event("ERROR", R"({"kind":"Status","code":500,"message":"etcd down"})")), kLastChunk}});
  server.script({{http_reply(200, configmap("5", "one"))}});
  auto client = client_for(server);
  Seen seen;
  ObjectWatch watch(*client, seen.options());
  ASSERT_TRUE(watch.start().ok());
  ASSERT_TRUE(seen.wait_for_problems(1));
  ASSERT_TRUE(server.wait_for_requests(4));
  watch.stop();
  EXPECT_THAT(seen.problems()[0], HasSubstr("ERROR event: code 500: etcd down"));
  EXPECT_EQ(seen.objects().size(), 1u);
  EXPECT_EQ(targets(server)[2], kCollection + "/" + kName);
}

TEST(ObjectWatch, stop_ends_a_quiet_watch_at_once) {
  ScriptedHttpServer server;
  server.script({{http_reply(200, configmap("5", "one"))}});
  auto client = client_for(server);
  Seen seen;
  ObjectWatch watch(*client, seen.options());
  ASSERT_TRUE(watch.start().ok());
  ASSERT_TRUE(server.wait_for_requests(2));  // the watch, held unanswered
  const auto before = std::chrono::steady_clock::now();
  watch.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - before, 5s);
  EXPECT_EQ(watch.watches(), 1u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
