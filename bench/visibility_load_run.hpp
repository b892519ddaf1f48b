// The visibility load client's run (bench/visibility_load.cpp's client): keep-alive TLS
// connections with one request in flight each, on one thread with asynchronous I/O, closed loop or
// open loop at a fixed rate (latency from each request's scheduled time), and what the run saw.
#pragma once

#include <chrono>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>

namespace koordq::bench::visibility_load {

namespace net = boost::asio;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

struct Options {
  std::string url;
  std::string cert, key, ca;
  bool insecure = false;
  size_t connections = 1;
  std::string duration = "10s";
  std::string warmup = "1s";
  std::string timeout = "10s";
  double rate = 0;  // requests per second across all connections; 0: closed loop
  std::vector<std::string> headers;
  bool json = false;
  // Baseline server.
  size_t serve_fixed = 0;
  uint16_t port = 0;
};

struct Target {
  std::string host, port, path;  // path holds the query, and {seq} where the request number goes
};

// The host, port and path of an https:// URL; std::nullopt with `problem` set when it is not one.
std::optional<Target> parse_url(const std::string& url, std::string& problem);

// What one run saw. Latencies are kept as samples (a few hundred thousand at most) and sorted once.
struct Stats {
  std::vector<int64_t> latency_ns;
  std::map<unsigned, uint64_t> statuses;
  std::map<std::string, uint64_t> transport_errors;
  uint64_t bytes = 0;
  uint64_t non_2xx = 0;
  uint64_t reconnects = 0;
  uint64_t completed_total = 0;  // warm-up included: divides the server's CPU time of the whole run
};

// One keep-alive connection with at most one request in flight (visibility_load_run.cpp).
class Connection;

class LoadRun {
 public:
  LoadRun(const Options& o, Target target, tcp::resolver::results_type endpoints, ssl::context& tls);

  // Opens every connection first (TLS handshakes are not measured), then runs for warm-up plus
  // duration; false when no connection could be opened.
  bool run();

  // Called by a connection.
  const Target& target() const { return target_; }
  const tcp::resolver::results_type& endpoints() const { return endpoints_; }
  std::chrono::nanoseconds timeout() const { return timeout_; }
  bool running() const { return running_; }
  void connected() { ++connected_; }
  void connect_failed(const std::string& message) {
    ++stats_.transport_errors[message];
    ++failed_to_connect_;
  }

  std::string next_request();
  void completed(Connection* c, Clock::time_point scheduled, unsigned status, uint64_t bytes);
  void transport_error(const std::string& message);
  void became_idle(Connection* c);

  const Stats& stats() const { return stats_; }
  size_t backlog() const { return backlog_.size(); }
  uint64_t scheduled_in_window() const { return scheduled_in_window_; }
  size_t open_connections() const { return connected_; }
  double window_seconds() const { return std::chrono::duration<double>(duration_).count(); }

 private:
  // Open loop: request i is due at start + i / rate; due requests wait in the backlog for an idle
  // connection and keep their scheduled time.
  void on_tick();
  void dispatch();

  const Options& options_;
  const Target target_;
  const tcp::resolver::results_type endpoints_;
  ssl::context& tls_;
  net::io_context ioc_;
  net::steady_timer tick_;
  net::steady_timer end_timer_;
  std::chrono::nanoseconds duration_{}, warmup_{}, timeout_{};
  std::string extra_headers_;
  std::vector<std::shared_ptr<Connection>> connections_;
  std::vector<Connection*> idle_;
  std::deque<Clock::time_point> backlog_;
  Clock::time_point start_, measure_from_, end_;
  uint64_t issued_ = 0;
  uint64_t scheduled_in_window_ = 0;
  uint64_t seq_ = 0;
  size_t connected_ = 0;
  bool running_ = false;
  size_t failed_to_connect_ = 0;
  Stats stats_;
};

}  // namespace koordq::bench::visibility_load
