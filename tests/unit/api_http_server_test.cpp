// The HTTP server's limits (behaviour.md §16.1) over real loopback sockets: keep-alive, the header
// deadline (408), the idle deadline, header and query size limits (431, 414), --max-connections,
// and that it keeps serving after each.
#include <chrono>
#include <future>
#include <thread>
#include <utility>

#include <boost/asio.hpp>
#include <gtest/gtest.h>

#include "api/http_server.hpp"

namespace koordq::api {
namespace KOORDQ_TEST_LOCAL {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;

class EchoService : public HttpService {
 public:
  HttpResponse handle(const HttpRequest& request, const PeerIdentity&) override {
    HttpResponse response(boost::beast::http::status::ok, 11);
    response.body() = "path " + std::string(request.target());
    return response;
  }
  HttpResponse limit_exceeded(ServerLimit limit) override {
    HttpResponse response(limit == ServerLimit::kHeaderTimeout    ? boost::beast::http::status::request_timeout
                          : limit == ServerLimit::kHeaderTooLarge ? boost::beast::http::status{431}
                          : limit == ServerLimit::kQueryTooLong   ? boost::beast::http::status::uri_too_long
                                                                  : boost::beast::http::status::bad_request,
                          11);
    response.body() = "limit";
    return response;
  }
};

class HttpServerTest : public ::testing::Test {
 protected:
  void start(HttpServerOptions options = {}) {
    options.name = "test";
    options.host = "127.0.0.1";
    options.port = 0;
    auto started = HttpServer::start(options, std::make_shared<EchoService>());
    ASSERT_TRUE(started.ok()) << started.message();
    server = std::move(started).value();
  }

  tcp::socket connect() {
    tcp::socket s(io);
    s.connect({net::ip::make_address("127.0.0.1"), server->port()});
    return s;
  }

  // Everything the server sends until it closes or `wait` passes without data.
  static std::string read_all(tcp::socket& s, std::chrono::milliseconds wait = 3000ms) {
    std::string out;
    s.non_blocking(true);
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < deadline) {
      char buf[4096];
      boost::system::error_code ec;
      const size_t n = s.read_some(net::buffer(buf), ec);
      if (ec == net::error::would_block) {
        std::this_thread::sleep_for(5ms);
        continue;
      }
      if (ec) break;
      out.append(buf, n);
    }
    return out;
  }

  static bool closed_by_peer(tcp::socket& s, std::chrono::milliseconds wait) {
    s.non_blocking(true);
    const auto deadline = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < deadline) {
      char buf[256];
      boost::system::error_code ec;
      s.read_some(net::buffer(buf), ec);
      if (ec == net::error::eof || ec == net::error::connection_reset) return true;
      std::this_thread::sleep_for(5ms);
    }
    return false;
  }

  std::string get(const std::string& target) {
    tcp::socket s = connect();
    net::write(s, net::buffer("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    return read_all(s);
  }

  net::io_context io;
  std::unique_ptr<HttpServer> server;
};

TEST_F(HttpServerTest, answers_two_requests_on_one_keep_alive_connection) {
  start();
  tcp::socket s = connect();
  net::write(s, net::buffer(std::string("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")));
  const std::string both = read_all(s, 500ms);
  EXPECT_NE(both.find("path /a"), std::string::npos) << both;
  EXPECT_NE(both.find("path /b"), std::string::npos) << both;
}

TEST_F(HttpServerTest, a_header_not_received_in_time_gets_408_and_the_connection_closes) {
  HttpServerOptions o;
  o.header_timeout = 200ms;
  start(o);
  tcp::socket s = connect();
  net::write(s, net::buffer(std::string("GET /slow HTTP/1.1\r\nHost: x\r\n")));  // never finished
  const std::string answer = read_all(s, 2000ms);
  EXPECT_EQ(answer.rfind("HTTP/1.1 408", 0), 0u) << answer;
  EXPECT_NE(get("/after").find("path /after"), std::string::npos);
}

TEST_F(HttpServerTest, an_idle_keep_alive_connection_is_closed_silently) {
  HttpServerOptions o;
  o.idle_timeout = 200ms;
  start(o);
  tcp::socket s = connect();
  net::write(s, net::buffer(std::string("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")));
  const std::string answer = read_all(s, 1500ms);
  EXPECT_NE(answer.find("path /a"), std::string::npos);
  EXPECT_EQ(answer.find("408"), std::string::npos) << "idle connections close without an answer";
}

TEST_F(HttpServerTest, oversized_headers_get_431_and_long_queries_414) {
  start();
  const std::string big = get("/x?" + std::string(20000, 'a'));
  EXPECT_EQ(big.rfind("HTTP/1.1 431", 0), 0u) << big.substr(0, 80);
  const std::string long_query = get("/x?" + std::string(10001, 'a'));
  EXPECT_EQ(long_query.rfind("HTTP/1.1 414", 0), 0u) << long_query.substr(0, 80);
  const std::string fits = get("/x?" + std::string(10000, 'a'));
  EXPECT_EQ(fits.rfind("HTTP/1.1 200", 0), 0u);
}

TEST_F(HttpServerTest, garbage_gets_400_and_the_server_keeps_serving) {
  start();
  tcp::socket s = connect();
  net::write(s, net::buffer(std::string("\x01\x02 nonsense\r\n\r\n")));
  const std::string answer = read_all(s, 1000ms);
  EXPECT_EQ(answer.rfind("HTTP/1.1 400", 0), 0u) << answer;
  EXPECT_NE(get("/ok").find("path /ok"), std::string::npos);
}

TEST_F(HttpServerTest, connections_beyond_the_maximum_are_closed_at_once) {
  HttpServerOptions o;
  o.max_connections = 2;
  start(o);
  tcp::socket a = connect(), b = connect();
  for (int i = 0; i < 100 && server->open_connections() < 2; ++i) std::this_thread::sleep_for(10ms);
  tcp::socket c = connect();
  EXPECT_TRUE(closed_by_peer(c, 2000ms));
  a.close();
  for (int i = 0; i < 100 && server->open_connections() >= 2; ++i) std::this_thread::sleep_for(10ms);
  tcp::socket d = connect();
  net::write(d, net::buffer(std::string("GET /d HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")));
  EXPECT_NE(read_all(d).find("path /d"), std::string::npos);
}

// A service whose /slow answer waits until the test lets it go, and is answered aside.
class SlowService : public EchoService {
 public:
  HttpResponse handle(const HttpRequest& request, const PeerIdentity& peer) override {
    if (request.target() == "/slow") {
      entered.set_value();
      released.wait();
    }
    return EchoService::handle(request, peer);
  }
  bool answered_aside(const HttpRequest& request) const override { return request.target() == "/slow"; }

  std::promise<void> entered, release;
  std::shared_future<void> released = release.get_future().share();
};

TEST_F(HttpServerTest, an_answer_worked_out_aside_does_not_hold_up_the_io_thread) {
  auto service = std::make_shared<SlowService>();
  HttpServerOptions options;
  options.name = "test";
  options.host = "127.0.0.1";
  options.aside_threads = 1;  // and one I/O thread, the default
  auto started = HttpServer::start(options, service);
  ASSERT_TRUE(started.ok()) << started.message();
  server = std::move(started).value();
  auto slow = std::async(std::launch::async, [this] { return get("/slow"); });
  service->entered.get_future().wait();  // /slow is being answered, and stays so until released
  auto fast = std::async(std::launch::async, [this] { return get("/fast"); });
  const bool answered = fast.wait_for(20s) == std::future_status::ready;
  service->release.set_value();
  ASSERT_TRUE(answered) << "/fast waited for /slow";
  EXPECT_NE(fast.get().find("path /fast"), std::string::npos);
  EXPECT_NE(slow.get().find("path /slow"), std::string::npos);
}

TEST(BindAddress, parses_the_flag_forms) {
  EXPECT_EQ(*split_bind_address(":10259"), std::make_pair(std::string(), uint16_t{10259}));
  EXPECT_EQ(*split_bind_address("127.0.0.1:80"), std::make_pair(std::string("127.0.0.1"), uint16_t{80}));
  EXPECT_EQ(*split_bind_address("[::1]:9"), std::make_pair(std::string("::1"), uint16_t{9}));
  EXPECT_FALSE(split_bind_address("10259").ok());
  EXPECT_FALSE(split_bind_address(":99999").ok());
  EXPECT_FALSE(split_bind_address(":").ok());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::api
