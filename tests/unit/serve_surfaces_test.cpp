// `koordq serve`'s surfaces never wait for deciding (behaviour.md §15.1, §18): /healthz, /readyz
// and /metrics answer while the router is provably busy (inside a message that does not return
// until the test lets it), from the state the read side published; and the probes answer while a
// scrape is still being rendered.
#include "cmd/serve_surfaces.hpp"

#include <future>
#include <string>
#include <thread>

#include <boost/asio.hpp>
#include <gtest/gtest.h>

#include "journal/record_clock.hpp"
#include "journal/watch_record.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/stored_records.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using namespace std::chrono_literals;
namespace net = boost::asio;
constexpr int64_t kT0 = 1'776'000'000 * kSec;

// The whole answer of one GET on a fresh connection (the server closes it after the answer).
std::string http_get(uint16_t port, const std::string& target) {
  net::io_context io;
  net::ip::tcp::socket s(io);
  s.connect({net::ip::make_address("127.0.0.1"), port});
  net::write(s, net::buffer("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  std::string out;
  boost::system::error_code ec;
  char buf[8192];
  while (!ec) out.append(buf, s.read_some(net::buffer(buf), ec));
  return out;
}

class ServeSurfacesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    options.metrics_bind_address = "127.0.0.1:0";
    options.enable_visibility_server = false;
    options.journal_dir = dir.path().string();
    auto started = cmd::ServeSurfaces::start(options, [] { return kT0; });
    ASSERT_TRUE(started.ok()) << started.message();
    surfaces = std::move(started).value();
    journal = open_test_journal(dir.path() / "journal", clock);
    std::vector<journal::StoredRecord> records;
    for (schema::WatchedObject o :
         {schema::WatchedObject(quota("root", "", {{"cpu", "8"}})), schema::WatchedObject(queue("root")),
          schema::WatchedObject(unit("a", "root", "1", 0, kT0))}) {
      schema::WatchEvent event;
      event.type = schema::WatchEventType::kAdded;
      event.object = std::move(o);
      records.push_back(chain.append(*journal::make_watch_body(event, schema::RawObjectMode::kOff), kT0));
    }
    ASSERT_TRUE(engine.apply(std::move(records)).ok());
    ASSERT_TRUE(engine.wait_published(3));
    ASSERT_TRUE(surfaces->attach(*journal, engine, true).ok());
    ASSERT_TRUE(surfaces->initial_sync_done().ok());
  }
  void TearDown() override {
    if (surfaces) surfaces->stop();
  }

  // Blocks the router inside a read of its state until `release` is set.
  void block_router() {
    blocker = std::thread([this] {
      engine.read_state([this](const actors::Scheduler&, uint64_t) {
        entered.set_value();
        released.wait();
      });
    });
    entered.get_future().wait();
  }
  void unblock_router() {
    release.set_value();
    blocker.join();
  }

  TempDir dir;
  cmd::ServeOptions options;
  int64_t now = kT0;
  journal::RecordClock clock{[this] { return now; }, [this] { return now; }};
  std::unique_ptr<journal::Journal> journal;
  std::unique_ptr<cmd::ServeSurfaces> surfaces;
  RecordChain chain;
  actors::runtime::DecisionEngine engine{{1, {}, true}, actors::Scheduler()};
  std::thread blocker;
  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
};

TEST_F(ServeSurfacesTest, probes_and_metrics_answer_while_the_router_is_blocked) {
  block_router();
  const uint16_t port = surfaces->metrics_port();
  auto metrics = std::async(std::launch::async, [port] { return http_get(port, "/metrics"); });
  auto health = std::async(std::launch::async, [port] { return http_get(port, "/healthz"); });
  auto ready = std::async(std::launch::async, [port] { return http_get(port, "/readyz"); });
  const bool answered = metrics.wait_for(30s) == std::future_status::ready &&
                        health.wait_for(30s) == std::future_status::ready &&
                        ready.wait_for(30s) == std::future_status::ready;
  // Only now does the router get on: every answer above came while it was still blocked.
  unblock_router();
  ASSERT_TRUE(answered) << "an answer waited for the router";
  const std::string body = metrics.get();
  EXPECT_NE(body.find("HTTP/1.1 200"), std::string::npos) << body;
  EXPECT_NE(body.find("\nkoordq_last_applied_sequence 3\n"), std::string::npos) << body;
  EXPECT_NE(body.find("\nkoordq_leader 1\n"), std::string::npos) << body;
  EXPECT_NE(health.get().find("HTTP/1.1 200"), std::string::npos);
  EXPECT_NE(ready.get().find("HTTP/1.1 200"), std::string::npos);
}

TEST_F(ServeSurfacesTest, the_metrics_at_a_revision_are_the_same_for_every_scrape_and_follow_the_next_revision) {
  const uint16_t port = surfaces->metrics_port();
  auto queueing = [](const std::string& answer) {
    // The lines of the families projected from the state, which do not move between scrapes.
    std::string out;
    size_t at = 0;
    while ((at = answer.find("\nqueueunits_", at)) != std::string::npos) {
      const size_t end = answer.find('\n', at + 1);
      out += answer.substr(at, end - at);
      at = end;
    }
    return out;
  };
  const std::string first = http_get(port, "/metrics");
  const std::string second = http_get(port, "/metrics");
  EXPECT_FALSE(queueing(first).empty()) << first;
  EXPECT_EQ(queueing(first), queueing(second));

  std::vector<journal::StoredRecord> more;
  schema::WatchEvent event;
  event.type = schema::WatchEventType::kAdded;
  event.object = schema::WatchedObject(unit("b", "root", "1", 0, kT0));
  more.push_back(chain.append(*journal::make_watch_body(event, schema::RawObjectMode::kOff), kT0));
  ASSERT_TRUE(engine.apply(std::move(more)).ok());
  ASSERT_TRUE(engine.wait_published(4));
  const std::string third = http_get(port, "/metrics");
  EXPECT_NE(third.find("\nkoordq_last_applied_sequence 4\n"), std::string::npos) << third;
  EXPECT_NE(queueing(third), queueing(first));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
