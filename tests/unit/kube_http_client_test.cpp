// kube/client's HTTP client and list+watch loop against a local scripted server: keep-alive,
// retries with Retry-After for repeatable requests only, timeouts, cancellation, the request
// observer; pagination, resumed watches, bookmarks, the two kinds of 410, cut streams, duplicates.
#include <chrono>
#include <future>
#include <mutex>
#include <thread>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/client/http_client.hpp"
#include "kube/client/resource_watcher.hpp"
#include "schema/json_encode.hpp"
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
using testing::ScriptedReply;

ClientConfig config_for(const ScriptedHttpServer& server) {
  return testing::scripted_client_config(server);
}

Request req(Verb verb, std::string target, std::string body = "") {
  Request request;
  request.verb = verb;
  request.target = std::move(target);
  request.body = std::move(body);
  return request;
}

HttpOptions fast_options() {
  HttpOptions options;
  options.qps = 0;
  options.retry.base_delay = 1ms;
  options.retry.max_delay = 5ms;
  options.read_timeout = 5000ms;
  options.connect_timeout = 2000ms;
  return options;
}

std::unique_ptr<HttpClient> client_for(const ScriptedHttpServer& server, HttpOptions options = fast_options()) {
  return testing::scripted_client(server, std::move(options));
}

TEST(HttpClient, sends_the_token_and_reuses_the_connection) {
  ScriptedHttpServer server;
  server.script({{http_reply(200, "{\"a\":1}")}});
  server.script({{http_reply(200, "{\"b\":2}")}});
  auto client = client_for(server);
  Result<Response> first = client->send(req(Verb::kGet, "/api/v1/x?limit=5"));
  ASSERT_TRUE(first.ok()) << first.message();
  EXPECT_EQ(first->status, 200);
  EXPECT_EQ(first->body, "{\"a\":1}");
  Result<Response> second = client->send(req(Verb::kGet, "/api/v1/y"));
  ASSERT_TRUE(second.ok()) << second.message();
  EXPECT_EQ(second->body, "{\"b\":2}");
  EXPECT_EQ(server.connections(), 1u) << "keep-alive";
  auto received = server.received();
  ASSERT_EQ(received.size(), 2u);
  EXPECT_EQ(received[0].target, "/api/v1/x?limit=5");
  EXPECT_EQ(received[0].headers["Authorization"], "Bearer test-token");
  EXPECT_EQ(received[0].headers["Host"], "127.0.0.1:" + std::to_string(server.port()));
}

TEST(HttpClient, patch_is_a_merge_patch) {
  ScriptedHttpServer server;
  server.script({{http_reply(200, "{}")}});
  auto client = client_for(server);
  Request patch = req(Verb::kPatch, "/apis/g/v/namespaces/n/queueunits/u/status", R"({"status":{"phase":"Running"}})");
  ASSERT_TRUE(client->send(patch).ok());
  auto received = server.received();
  EXPECT_EQ(received[0].method, "PATCH");
  EXPECT_EQ(received[0].headers["Content-Type"], "application/merge-patch+json");
  EXPECT_EQ(received[0].body, R"({"status":{"phase":"Running"}})");
}

TEST(HttpClient, retries_503_and_429_after_retry_after_and_reports_every_attempt) {
  ScriptedHttpServer server;
  server.script({{http_reply(503, "busy", "Retry-After: 1\r\n")}});
  server.script({{http_reply(429, "slow down", "Retry-After: 0\r\n")}});
  server.script({{http_reply(200, "done")}});
  HttpOptions options = fast_options();
  std::mutex mutex;
  std::vector<std::string> observed;
  options.observer.on_request = [&](const RequestRecord& r) {
    std::lock_guard lock(mutex);
    observed.push_back(std::string(r.verb) + " " + std::string(r.host) + " " + r.code);
  };
  auto client = client_for(server, options);
  auto start = std::chrono::steady_clock::now();
  Result<Response> response = client->send(req(Verb::kGet, "/x"));
  auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(response.ok()) << response.message();
  EXPECT_EQ(response->body, "done");
  EXPECT_GE(waited, 1s) << "Retry-After: 1 was honoured";
  const std::string host = "127.0.0.1:" + std::to_string(server.port());
  EXPECT_EQ(observed,
            (std::vector<std::string>{"GET " + host + " 503", "GET " + host + " 429", "GET " + host + " 200"}));
}

TEST(HttpClient, a_retry_wait_cut_by_cancellation_names_the_last_answer) {
  ScriptedHttpServer server;
  server.script({{http_reply(503, "busy", "Retry-After: 30\r\n")}});
  // Cancelled once the client has the answer (it reports each attempt, then waits 30 s).
  HttpOptions options = fast_options();
  std::promise<void> answered;
  options.observer.on_request = [&](const RequestRecord&) { answered.set_value(); };
  auto client = client_for(server, options);
  Cancellation cancellation;
  std::thread canceller([&] {
    answered.get_future().wait();
    std::this_thread::sleep_for(50ms);
    cancellation.cancel();
  });
  Result<Response> response = client->send(req(Verb::kGet, "/x"), &cancellation);
  canceller.join();
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.message(), HasSubstr("cancelled while waiting to retry after HTTP 503"));
}

TEST(HttpClient, post_and_unconditional_patch_are_not_retried) {
  ScriptedHttpServer server;
  server.script({{http_reply(503, "busy")}});
  server.script({{http_reply(503, "busy")}});
  server.script({{http_reply(503, "busy")}});
  server.script({{http_reply(200, "ok")}});
  auto client = client_for(server);
  Result<Response> post = client->send(req(Verb::kPost, "/x", "{}"));
  ASSERT_TRUE(post.ok());
  EXPECT_EQ(post->status, 503);
  Result<Response> patch = client->send(req(Verb::kPatch, "/x", "{}"));
  ASSERT_TRUE(patch.ok());
  EXPECT_EQ(patch->status, 503);
  Request conditional = req(Verb::kPatch, "/x", R"({"metadata":{"resourceVersion":"5"}})");
  conditional.has_precondition = true;
  Result<Response> retried = client->send(conditional);
  ASSERT_TRUE(retried.ok());
  EXPECT_EQ(retried->status, 200);
  EXPECT_EQ(server.received().size(), 4u);
}

TEST(HttpClient, gives_up_after_max_attempts_with_the_last_answer) {
  ScriptedHttpServer server;
  for (int i = 0; i < 3; ++i) server.script({{http_reply(500, "broken")}});
  HttpOptions options = fast_options();
  options.retry.max_attempts = 3;
  auto client = client_for(server, options);
  Result<Response> response = client->send(req(Verb::kGet, "/x"));
  ASSERT_TRUE(response.ok());
  EXPECT_EQ(response->status, 500);
  EXPECT_EQ(server.received().size(), 3u);
}

TEST(HttpClient, a_kept_alive_connection_the_server_closed_is_replaced) {
  ScriptedHttpServer server;
  server.script({{http_reply(200, "one")}, /*close=*/true});  // closes without saying so
  server.script({{http_reply(200, "two")}});
  HttpOptions options = fast_options();
  options.retry.max_attempts = 1;
  auto client = client_for(server, options);
  ASSERT_TRUE(client->send(req(Verb::kGet, "/a")).ok());
  std::this_thread::sleep_for(50ms);
  Result<Response> second = client->send(req(Verb::kPost, "/b", "{}"));
  ASSERT_TRUE(second.ok()) << second.message();
  EXPECT_EQ(second->body, "two");
  EXPECT_EQ(server.connections(), 2u);
}

TEST(HttpClient, connection_errors_name_the_request) {
  ClientConfig config;
  ASSERT_TRUE(parse_server_url("http://127.0.0.1:1", config).ok());
  HttpOptions options = fast_options();
  options.retry.max_attempts = 2;
  std::vector<std::string> codes;
  options.observer.on_request = [&](const RequestRecord& r) { codes.push_back(r.code); };
  auto client = HttpClient::create(config, options);
  ASSERT_TRUE(client.ok());
  Result<Response> response = (*client)->send(req(Verb::kGet, "/apis/x?continue=secret"));
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.message(), HasSubstr("GET http://127.0.0.1:1/apis/x: connect: Connection refused"));
  EXPECT_THAT(response.message(), ::testing::Not(HasSubstr("secret")));
  EXPECT_EQ(codes, (std::vector<std::string>{"<error>", "<error>"}));
}

TEST(HttpClient, a_silent_server_times_out) {
  ScriptedHttpServer server;  // no script: the request is never answered
  HttpOptions options = fast_options();
  options.read_timeout = 200ms;
  options.retry.max_attempts = 1;
  auto client = client_for(server, options);
  Result<Response> response = client->send(req(Verb::kGet, "/x"));
  ASSERT_FALSE(response.ok());
  EXPECT_THAT(response.message(), HasSubstr("read: timed out"));
}

TEST(HttpClient, cancellation_ends_a_stream_at_once) {
  ScriptedHttpServer server;
  server.script({{chunked_header(), chunk("{\"partial\":")}});  // then nothing
  auto client = client_for(server);
  Cancellation cancellation;
  std::thread canceller([&] {
    server.wait_for_requests(1);
    std::this_thread::sleep_for(100ms);
    cancellation.cancel();
  });
  std::string body;
  Result<StreamOutcome> outcome = client->stream(
      req(Verb::kGet, "/watch"),
      [&](std::string_view piece) {
        body += piece;
        return ok_status();
      },
      60s, &cancellation);
  canceller.join();
  ASSERT_FALSE(outcome.ok());
  EXPECT_THAT(outcome.message(), HasSubstr("cancelled"));
  EXPECT_EQ(body, "{\"partial\":");
}

TEST(HttpClient, invalid_tls_material_is_refused_with_the_field) {
  ClientConfig config;
  ASSERT_TRUE(parse_server_url("https://127.0.0.1:6443", config).ok());
  config.source = "kubeconfig /k (context c)";
  config.ca_pem = "not a certificate";
  Result<std::unique_ptr<HttpClient>> client = HttpClient::create(config);
  ASSERT_FALSE(client.ok());
  EXPECT_THAT(client.message(), HasSubstr("kubeconfig /k (context c): certificate-authority: not a PEM certificate"));
  config.ca_pem.clear();
  config.client_cert_pem = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
  config.client_key_pem = "secret key bytes";
  client = HttpClient::create(config);
  ASSERT_FALSE(client.ok());
  EXPECT_THAT(client.message(), HasSubstr("client-certificate: not a PEM certificate"));
  EXPECT_THAT(client.message(), ::testing::Not(HasSubstr("secret key bytes")));
}

// ---- the list+watch loop ----

schema::QueueUnit unit(const std::string& name, const std::string& rv) {
  schema::QueueUnit u;
  u.metadata.name = name;
  u.metadata.namespace_ = "ns";
  u.metadata.uid = "uid-" + name;
  u.metadata.resource_version = rv;
  return u;
}

std::string event_line(schema::WatchEventType type, const std::string& name, const std::string& rv) {
  return schema::encode_watch_event(type, unit(name, rv)) + "\n";
}

std::string bookmark_line(const std::string& rv) {
  return schema::encode_watch_event(schema::WatchEventType::kBookmark, unit("", rv)) + "\n";
}

std::string list_page(const std::vector<schema::WatchedObject>& items, const std::string& rv,
                      const std::string& continue_token = "",
                      schema::ObjectKind kind = schema::ObjectKind::kQueueUnit) {
  return http_reply(200, schema::encode_list(kind, items, rv, continue_token));
}

class RecordingSink : public WatchSink {
 public:
  void on_relist(const WatchedResource&, ListSnapshot list) override {
    std::string line = "relist " + list.resource_version;
    for (const auto& item : list.items) line += " " + schema::meta_of(item.object).name;
    add(line);
  }
  void on_event(const WatchedResource&, schema::WatchEvent event) override {
    const auto& meta = schema::meta_of(*event.object);
    add(std::string(schema::watch_event_type_name(event.type)) + " " + meta.name + " " + meta.resource_version);
  }
  void on_bookmark(const WatchedResource&, const std::string& rv) override { add("bookmark " + rv); }
  void on_problem(const WatchedResource&, const std::string& message) override {
    std::lock_guard lock(mutex_);
    problems_.push_back(message);
  }

  bool wait_for(size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, 10s, [&] { return lines_.size() >= n; });
  }
  std::vector<std::string> lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }
  std::vector<std::string> problems() {
    std::lock_guard lock(mutex_);
    return problems_;
  }

 private:
  void add(std::string line) {
    std::lock_guard lock(mutex_);
    lines_.push_back(std::move(line));
    changed_.notify_all();
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> lines_;
  std::vector<std::string> problems_;
};

WatcherOptions watcher_options() {
  WatcherOptions options;
  options.page_size = 2;
  options.watch_timeout_min = options.watch_timeout_max = 30s;
  options.backoff_base = 1ms;
  options.backoff_max = 5ms;
  return options;
}

std::vector<std::string> targets(const ScriptedHttpServer& server) {
  std::vector<std::string> out;
  for (const auto& r : server.received()) out.push_back(r.target);
  return out;
}

const std::string kPath = "/apis/scheduling.x-k8s.io/v1alpha1/queueunits";
const std::string kWatch = kPath + "?watch=true&allowWatchBookmarks=true&timeoutSeconds=30&resourceVersion=";

TEST(ResourceWatcher, paginated_list_then_watch_resumed_from_the_last_bookmark_then_relist_on_http_410) {
  ScriptedHttpServer server;
  server.script({{list_page({unit("a", "5"), unit("b", "6")}, "10", "next+/=")}});
  server.script({{list_page({unit("c", "7")}, "10")}});
  server.script({{chunked_header(), chunk(event_line(schema::WatchEventType::kAdded, "d", "11")),
                  chunk(bookmark_line("12")), kLastChunk}});
  server.script({{http_reply(410, R"({"kind":"Status","code":410,"reason":"Expired"})")}});
  server.script({{list_page({unit("a", "5")}, "20")}});
  auto client = client_for(server);
  RecordingSink sink;
  ResourceWatcher watcher(*client, queue_units_resource(), sink, watcher_options());
  watcher.start();
  ASSERT_TRUE(sink.wait_for(4));
  ASSERT_TRUE(server.wait_for_requests(6));
  watcher.stop();
  EXPECT_EQ(sink.lines(), (std::vector<std::string>{"relist 10 a b c", "ADDED d 11", "bookmark 12", "relist 20 a"}));
  EXPECT_EQ(targets(server),
            (std::vector<std::string>{kPath + "?limit=2", kPath + "?limit=2&continue=next%2B%2F%3D", kWatch + "10",
                                      kWatch + "12", kPath + "?limit=2", kWatch + "20"}));
  EXPECT_EQ(watcher.stats().expired.load(), 1u);
  EXPECT_EQ(watcher.stats().lists.load(), 2u);
}

TEST(ResourceWatcher, an_error_event_410_in_a_200_stream_relists) {
  ScriptedHttpServer server;
  server.script({{list_page({}, "10")}});
  server.script({{chunked_header(), chunk(event_line(schema::WatchEventType::kAdded, "a", "11")),
                  chunk(schema::encode_error_event({410, "Expired", "too old resource version: 11 (90)"}) + "\n")},
                 true});
  server.script({{list_page({unit("a", "95")}, "100")}});
  auto client = client_for(server);
  RecordingSink sink;
  ResourceWatcher watcher(*client, queue_units_resource(), sink, watcher_options());
  watcher.start();
  ASSERT_TRUE(sink.wait_for(3));
  ASSERT_TRUE(server.wait_for_requests(4));
  watcher.stop();
  EXPECT_EQ(sink.lines(), (std::vector<std::string>{"relist 10", "ADDED a 11", "relist 100 a"}));
  EXPECT_EQ(targets(server)[3], kWatch + "100");
  ASSERT_FALSE(sink.problems().empty());
  EXPECT_THAT(sink.problems()[0], HasSubstr("too old (410); relisting"));
}

TEST(ResourceWatcher, a_410_on_a_continue_restarts_the_list) {
  ScriptedHttpServer server;
  server.script({{list_page({unit("a", "5"), unit("b", "6")}, "10", "tok")}});
  server.script({{http_reply(410, R"({"kind":"Status","code":410})")}});
  server.script({{list_page({unit("a", "5")}, "30")}});
  auto client = client_for(server);
  RecordingSink sink;
  ResourceWatcher watcher(*client, queue_units_resource(), sink, watcher_options());
  watcher.start();
  ASSERT_TRUE(sink.wait_for(1));
  ASSERT_TRUE(server.wait_for_requests(4));
  watcher.stop();
  EXPECT_EQ(sink.lines(), (std::vector<std::string>{"relist 30 a"})) << "the first pages are discarded";
  EXPECT_EQ(targets(server), (std::vector<std::string>{kPath + "?limit=2", kPath + "?limit=2&continue=tok",
                                                       kPath + "?limit=2", kWatch + "30"}));
}

TEST(ResourceWatcher, a_stream_cut_mid_event_resumes_without_relisting_and_duplicates_are_dropped) {
  ScriptedHttpServer server;
  server.script({{list_page({unit("a", "5")}, "10")}});
  const std::string b12 = event_line(schema::WatchEventType::kAdded, "b", "12");
  server.script(
      {{chunked_header(), chunk(event_line(schema::WatchEventType::kModified, "a", "11")), chunk(b12.substr(0, 20))},
       true});
  // The resumed watch repeats a@11 (as a server resuming from an older resourceVersion might).
  server.script({{chunked_header(), chunk(event_line(schema::WatchEventType::kModified, "a", "11")), chunk(b12),
                  chunk(event_line(schema::WatchEventType::kDeleted, "a", "13"))}});
  auto client = client_for(server);
  RecordingSink sink;
  ResourceWatcher watcher(*client, queue_units_resource(), sink, watcher_options());
  watcher.start();
  ASSERT_TRUE(sink.wait_for(4));
  watcher.stop();
  EXPECT_EQ(sink.lines(), (std::vector<std::string>{"relist 10 a", "MODIFIED a 11", "ADDED b 12", "DELETED a 13"}));
  EXPECT_EQ(targets(server)[2], kWatch + "11");
  EXPECT_EQ(watcher.stats().duplicates.load(), 1u);
  EXPECT_EQ(watcher.stats().lists.load(), 1u);
  ASSERT_FALSE(sink.problems().empty());
  EXPECT_THAT(sink.problems()[0], HasSubstr("watch stream ended mid-event"));
}

TEST(ResourceWatcher, a_stream_cut_inside_an_http_chunk_drops_the_partial_event) {
  ScriptedHttpServer server;
  server.script({{list_page({}, "10")}});
  const std::string b12 = event_line(schema::WatchEventType::kAdded, "b", "12");
  // The chunk announces all of b@12 but the connection ends 20 bytes into it.
  char size[16];
  std::snprintf(size, sizeof size, "%zx\r\n", b12.size());
  server.script(
      {{chunked_header(), chunk(event_line(schema::WatchEventType::kAdded, "a", "11")), size + b12.substr(0, 20)},
       true});
  server.script({{chunked_header(), chunk(b12)}});
  auto client = client_for(server);
  RecordingSink sink;
  ResourceWatcher watcher(*client, queue_units_resource(), sink, watcher_options());
  watcher.start();
  ASSERT_TRUE(sink.wait_for(3));
  watcher.stop();
  EXPECT_EQ(sink.lines(), (std::vector<std::string>{"relist 10", "ADDED a 11", "ADDED b 12"}));
  EXPECT_EQ(targets(server)[2], kWatch + "11");
  EXPECT_EQ(watcher.stats().lists.load(), 1u);
  ASSERT_FALSE(sink.problems().empty());
  EXPECT_THAT(sink.problems()[0], HasSubstr("watch stream ended mid-event (20 bytes"));
}

// Ten watches in a row each deliver an event and are then cut. Counted as failures in a row, the
// backoff before the tenth would have doubled to 200 ms × 2^8 (at least 51 s of waiting in all);
// since each made progress, each waits the base backoff (at most 200 ms).
TEST(ResourceWatcher, a_watch_that_delivered_events_before_it_failed_retries_after_the_base_backoff) {
  ScriptedHttpServer server;
  server.script({{list_page({}, "10")}});
  for (int i = 0; i < 10; ++i) {
    const std::string rv = std::to_string(11 + i);
    server.script({{chunked_header(), chunk(event_line(schema::WatchEventType::kAdded, "u" + rv, rv)),
                    chunk(event_line(schema::WatchEventType::kAdded, "next", "99").substr(0, 20))},
                   true});
  }
  auto client = client_for(server);
  RecordingSink sink;
  WatcherOptions options = watcher_options();
  options.backoff_base = 200ms;
  options.backoff_max = 60s;
  ResourceWatcher watcher(*client, queue_units_resource(), sink, options);
  watcher.start();
  ASSERT_TRUE(sink.wait_for(11)) << "the backoff grew although every watch delivered an event; lines: "
                                 << sink.lines().size();
  watcher.stop();
  EXPECT_EQ(sink.lines().back(), "ADDED u20 20");
  EXPECT_EQ(targets(server)[10], kWatch + "19");
}

TEST(ResourceWatcher, the_stall_limit_is_timeout_seconds_plus_a_tenth_within_the_grace_bounds) {
  const WatcherOptions o;
  EXPECT_EQ(watch_stall_limit(300s, o), 330s);
  EXPECT_EQ(watch_stall_limit(600s, o), 630s) << "the grace is at most 30 s";
  EXPECT_EQ(watch_stall_limit(100s, o), 110s);
  EXPECT_EQ(watch_stall_limit(5s, o), 10s) << "the grace is at least 5 s";
}

TEST(ResourceWatcher, a_stalled_watch_is_dropped_and_resumed_from_the_last_resource_version) {
  ScriptedHttpServer server;
  server.script({{list_page({}, "10")}});
  // The first watch delivers a@11 and the start of b@12, then falls silent without ending.
  const std::string b12 = event_line(schema::WatchEventType::kAdded, "b", "12");
  server.script(
      {{chunked_header(), chunk(event_line(schema::WatchEventType::kAdded, "a", "11")), chunk(b12.substr(0, 20))}});
  server.script({{chunked_header(), chunk(b12)}});
  auto client = client_for(server);
  RecordingSink sink;
  WatcherOptions options = watcher_options();
  options.watch_timeout_min = options.watch_timeout_max = 1s;
  options.stall_grace_min = options.stall_grace_max = 200ms;
  ResourceWatcher watcher(*client, queue_units_resource(), sink, options);
  const auto start = std::chrono::steady_clock::now();
  watcher.start();
  ASSERT_TRUE(sink.wait_for(3));
  const auto resumed_after = std::chrono::steady_clock::now() - start;
  watcher.stop();
  EXPECT_EQ(sink.lines(), (std::vector<std::string>{"relist 10", "ADDED a 11", "ADDED b 12"}));
  const std::string watch_1s = kPath + "?watch=true&allowWatchBookmarks=true&timeoutSeconds=1&resourceVersion=";
  EXPECT_EQ(targets(server), (std::vector<std::string>{kPath + "?limit=2", watch_1s + "10", watch_1s + "11"}));
  EXPECT_GE(resumed_after, 1200ms) << "a stream is stalled only once silent past timeoutSeconds plus grace";
  EXPECT_EQ(watcher.stats().lists.load(), 1u);
  ASSERT_FALSE(sink.problems().empty());
  EXPECT_THAT(sink.problems()[0], HasSubstr("stalled: nothing received for 1200 ms (timeoutSeconds=1 plus grace); "
                                            "resuming from resourceVersion 11; watch stream ended mid-event"));
}

TEST(ResourceWatcher, api_errors_are_retried_and_reported) {
  ScriptedHttpServer server;
  server.script({{http_reply(403, R"({"kind":"Status","code":403,"message":"forbidden"})")}});
  server.script({{list_page({}, "10", "", schema::ObjectKind::kQueue)}});
  auto client = client_for(server);
  RecordingSink sink;
  ResourceWatcher watcher(*client, queues_resource("koord-queue"), sink, watcher_options());
  watcher.start();
  ASSERT_TRUE(sink.wait_for(1));
  watcher.stop();
  ASSERT_FALSE(sink.problems().empty());
  EXPECT_THAT(sink.problems()[0], HasSubstr("LIST queues in koord-queue: HTTP 403"));
  EXPECT_EQ(server.received()[0].target, "/apis/scheduling.x-k8s.io/v1alpha1/namespaces/koord-queue/queues?limit=2");
}

TEST(ResourceWatcher, stop_ends_a_quiet_watch_at_once) {
  ScriptedHttpServer server;
  server.script({{list_page({}, "10", "", schema::ObjectKind::kElasticQuota)}});
  server.script({{chunked_header()}});  // a watch on which nothing happens
  auto client = client_for(server);
  RecordingSink sink;
  ResourceWatcher watcher(*client, elastic_quotas_resource(), sink, watcher_options());
  watcher.start();
  ASSERT_TRUE(server.wait_for_requests(2));
  std::this_thread::sleep_for(50ms);
  auto start = std::chrono::steady_clock::now();
  watcher.stop();
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_EQ(sink.lines(), (std::vector<std::string>{"relist 10"}));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
