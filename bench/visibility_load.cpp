// visibility_load: an HTTPS load client that presents a client certificate, for the visibility
// API (wrk and hey cannot). Keep-alive connections with one request in flight each, on one thread
// with asynchronous I/O. Closed loop by default (each connection sends its next request when the
// answer arrives); with --rate, open loop at a fixed arrival rate, the latency of each request
// measured from the time it was scheduled, so a server that falls behind shows its queueing delay
// (no coordinated omission).
//
// --serve-fixed BYTES turns it into the baseline: a minimal Boost.Beast + OpenSSL server that
// verifies client certificates and answers every request with the same BYTES-byte body, so the
// visibility API can be compared with the raw libraries doing the same transport work.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <fmt/format.h>
#include <openssl/err.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <sys/resource.h>

#include "base/go_duration.hpp"

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
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

std::optional<Target> parse_url(const std::string& url, std::string& problem) {
  constexpr std::string_view kScheme = "https://";
  if (!url.starts_with(kScheme)) {
    problem = "--url must start with https:// (got \"" + url + "\")";
    return std::nullopt;
  }
  const std::string rest = url.substr(kScheme.size());
  const size_t slash = rest.find('/');
  const std::string authority = rest.substr(0, slash);
  Target t;
  t.path = slash == std::string::npos ? "/" : rest.substr(slash);
  size_t colon = authority.rfind(':');
  if (!authority.empty() && authority.front() == '[') {  // [::1]:8082
    const size_t close = authority.find(']');
    t.host = authority.substr(1, close - 1);
    colon = authority.find(':', close);
  } else {
    t.host = authority.substr(0, colon);
  }
  t.port = colon == std::string::npos ? "443" : authority.substr(colon + 1);
  if (t.host.empty() || t.port.empty()) {
    problem = "--url has no host or port: \"" + url + "\"";
    return std::nullopt;
  }
  return t;
}

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

class LoadRun;

// One keep-alive connection with at most one request in flight.
class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(LoadRun& run, net::io_context& ioc, ssl::context& tls);
  void connect();
  void send(Clock::time_point scheduled);
  bool ready() const { return ready_; }

 private:
  void on_connected(beast::error_code ec);
  void on_handshake(beast::error_code ec);
  void on_written(beast::error_code ec);
  void on_read(beast::error_code ec, size_t bytes);
  void fail(const std::string& what, beast::error_code ec);

  // A body that is only counted: the client must not spend its core copying what it measures.
  struct CountedBody {
    using value_type = uint64_t;
    class reader {
     public:
      template <bool isRequest, class Fields>
      reader(http::header<isRequest, Fields>&, value_type& bytes) : bytes_(bytes) {}
      void init(const boost::optional<uint64_t>&, beast::error_code& ec) { ec = {}; }
      template <class Buffers>
      size_t put(const Buffers& buffers, beast::error_code& ec) {
        ec = {};
        const size_t n = beast::buffer_bytes(buffers);
        bytes_ += n;
        return n;
      }
      void finish(beast::error_code& ec) { ec = {}; }

     private:
      value_type& bytes_;
    };
  };

  LoadRun& run_;
  net::io_context& ioc_;
  ssl::context& tls_;
  void arm_deadline();
  void disarm_deadline();

  std::optional<ssl::stream<tcp::socket>> stream_;
  beast::flat_buffer buffer_;
  std::optional<http::response_parser<CountedBody>> parser_;
  std::string request_;
  Clock::time_point scheduled_;
  bool ready_ = false;
  bool timed_out_ = false;
  uint64_t deadline_generation_ = 0;
  net::steady_timer retry_;
  net::steady_timer deadline_;
};

class LoadRun {
 public:
  LoadRun(const Options& o, Target target, tcp::resolver::results_type endpoints, ssl::context& tls)
      : options_(o),
        target_(std::move(target)),
        endpoints_(std::move(endpoints)),
        tls_(tls),
        tick_(ioc_),
        end_timer_(ioc_) {
    duration_ = std::chrono::nanoseconds(*koordq::base::parse_go_duration(o.duration));
    warmup_ = std::chrono::nanoseconds(*koordq::base::parse_go_duration(o.warmup));
    timeout_ = std::chrono::nanoseconds(*koordq::base::parse_go_duration(o.timeout));
    for (const std::string& h : o.headers) extra_headers_ += h + "\r\n";
  }

  // Opens every connection first (TLS handshakes are not measured), then runs for warm-up plus
  // duration; false when no connection could be opened.
  bool run() {
    for (size_t i = 0; i < options_.connections; ++i) {
      connections_.push_back(std::make_shared<Connection>(*this, ioc_, tls_));
    }
    for (auto& c : connections_) c->connect();
    const auto give_up = Clock::now() + timeout_;
    while (connected_ + failed_to_connect_ < connections_.size() && Clock::now() < give_up) {
      ioc_.run_one_for(std::chrono::milliseconds(50));
    }
    if (connected_ == 0) return false;
    start_ = Clock::now();
    measure_from_ = start_ + std::chrono::duration_cast<Clock::duration>(warmup_);
    end_ = measure_from_ + std::chrono::duration_cast<Clock::duration>(duration_);
    running_ = true;
    for (auto& c : connections_) {
      if (c->ready()) idle_.push_back(c.get());
    }
    if (options_.rate > 0) {
      on_tick();
    } else {
      while (!idle_.empty()) {
        Connection* c = idle_.back();
        idle_.pop_back();
        c->send(Clock::now());
      }
    }
    end_timer_.expires_at(end_);
    end_timer_.async_wait([this](beast::error_code) {
      running_ = false;
      ioc_.stop();  // requests still in flight are not counted
    });
    ioc_.run();
    return true;
  }

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

  std::string next_request() {
    std::string path = target_.path;
    const size_t at = path.find("{seq}");
    if (at != std::string::npos) path.replace(at, 5, std::to_string(seq_));
    ++seq_;
    return "GET " + path + " HTTP/1.1\r\nHost: " + target_.host + ":" + target_.port +
           "\r\nUser-Agent: koordq-visibility-load\r\nAccept: application/json\r\n" + extra_headers_ + "\r\n";
  }

  void completed(Connection* c, Clock::time_point scheduled, unsigned status, uint64_t bytes) {
    const auto now = Clock::now();
    ++stats_.completed_total;
    if (now >= measure_from_ && now <= end_) {
      stats_.latency_ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(now - scheduled).count());
      ++stats_.statuses[status];
      if (status < 200 || status > 299) ++stats_.non_2xx;
      stats_.bytes += bytes;
    }
    if (c != nullptr) became_idle(c);
  }

  void transport_error(const std::string& message) {
    if (Clock::now() >= measure_from_) ++stats_.transport_errors[message];
    ++stats_.reconnects;
  }

  void became_idle(Connection* c) {
    if (!running_) return;
    if (options_.rate <= 0) return c->send(Clock::now());
    idle_.push_back(c);
    dispatch();
  }

  const Stats& stats() const { return stats_; }
  size_t backlog() const { return backlog_.size(); }
  uint64_t scheduled_in_window() const { return scheduled_in_window_; }
  size_t open_connections() const { return connected_; }
  double window_seconds() const { return std::chrono::duration<double>(duration_).count(); }

 private:
  // Open loop: request i is due at start + i / rate; due requests wait in the backlog for an idle
  // connection and keep their scheduled time.
  void on_tick() {
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    const auto due = static_cast<uint64_t>(std::floor(elapsed * options_.rate)) + 1;
    for (; issued_ < due; ++issued_) {
      const auto at = start_ + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(static_cast<double>(issued_) / options_.rate));
      if (at >= end_) break;
      if (at >= measure_from_) ++scheduled_in_window_;
      backlog_.push_back(at);
    }
    dispatch();
    const auto next = start_ + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(static_cast<double>(issued_) / options_.rate));
    if (next >= end_) return;
    tick_.expires_at(next);
    tick_.async_wait([this](beast::error_code ec) {
      if (!ec) on_tick();
    });
  }

  void dispatch() {
    while (!idle_.empty() && !backlog_.empty()) {
      Connection* c = idle_.back();
      idle_.pop_back();
      const auto at = backlog_.front();
      backlog_.pop_front();
      c->send(at);
    }
  }

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

Connection::Connection(LoadRun& run, net::io_context& ioc, ssl::context& tls)
    : run_(run), ioc_(ioc), tls_(tls), retry_(ioc), deadline_(ioc) {}

// One timer per request rather than per socket operation (a 300 KB answer is ~20 TLS records).
void Connection::arm_deadline() {
  const uint64_t generation = ++deadline_generation_;
  timed_out_ = false;
  deadline_.expires_after(run_.timeout());
  deadline_.async_wait([self = shared_from_this(), generation](beast::error_code ec) {
    if (ec || generation != self->deadline_generation_) return;
    self->timed_out_ = true;
    beast::error_code ignored;
    self->stream_->next_layer().close(ignored);
  });
}

void Connection::disarm_deadline() {
  ++deadline_generation_;
  deadline_.cancel();
}

void Connection::connect() {
  ready_ = false;
  stream_.emplace(ioc_, tls_);
  buffer_.clear();
  // Room for a whole TLS record per read: Beast reads at most the buffer's free capacity, and a
  // buffer left at the size of the answer's header would take a 300 KB body in 1 KB reads.
  buffer_.reserve(64 * 1024);
  const std::string& host = run_.target().host;
  if (!SSL_set_tlsext_host_name(stream_->native_handle(), host.c_str())) {
    return fail("setting the TLS server name",
                beast::error_code(static_cast<int>(::ERR_get_error()), net::error::get_ssl_category()));
  }
  stream_->set_verify_callback(ssl::host_name_verification(host));
  arm_deadline();
  net::async_connect(
      stream_->next_layer(), run_.endpoints(),
      [self = shared_from_this()](beast::error_code ec, const tcp::endpoint&) { self->on_connected(ec); });
}

void Connection::on_connected(beast::error_code ec) {
  if (ec) return fail("connect", ec);
  stream_->next_layer().set_option(tcp::no_delay(true), ec);
  stream_->async_handshake(ssl::stream_base::client,
                           [self = shared_from_this()](beast::error_code ec) { self->on_handshake(ec); });
}

void Connection::on_handshake(beast::error_code ec) {
  if (ec) return fail("TLS handshake", ec);
  disarm_deadline();
  ready_ = true;
  if (!run_.running()) return run_.connected();
  run_.became_idle(this);
}

void Connection::send(Clock::time_point scheduled) {
  scheduled_ = scheduled;
  request_ = run_.next_request();
  arm_deadline();
  net::async_write(*stream_, net::buffer(request_),
                   [self = shared_from_this()](beast::error_code ec, size_t) { self->on_written(ec); });
}

void Connection::on_written(beast::error_code ec) {
  if (ec) return fail("write", ec);
  parser_.emplace();
  parser_->body_limit(boost::none);
  http::async_read(*stream_, buffer_, *parser_,
                   [self = shared_from_this()](beast::error_code ec, size_t n) { self->on_read(ec, n); });
}

void Connection::on_read(beast::error_code ec, size_t bytes) {
  if (ec) return fail("read", ec);
  disarm_deadline();
  const unsigned status = parser_->get().result_int();
  const bool keep_alive = parser_->get().keep_alive();
  parser_.reset();
  if (!keep_alive) {
    run_.completed(nullptr, scheduled_, status, bytes);  // counted; this connection reconnects
    run_.transport_error("the server closed the keep-alive connection");
    return connect();
  }
  run_.completed(this, scheduled_, status, bytes);
}

void Connection::fail(const std::string& what, beast::error_code ec) {
  disarm_deadline();
  const std::string message = what + ": " + (timed_out_ ? "no answer within --timeout" : ec.message());
  if (!run_.running() && !ready_) return run_.connect_failed(message);
  run_.transport_error(message);
  ready_ = false;
  retry_.expires_after(std::chrono::milliseconds(100));  // a server that is gone is not hammered
  retry_.async_wait([self = shared_from_this()](beast::error_code) { self->connect(); });
}

struct Summary {
  uint64_t requests = 0;
  double rps = 0, bytes_per_s = 0;
  double p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;  // milliseconds
};

Summary summarize(Stats& stats, double seconds) {
  Summary s;
  auto& v = stats.latency_ns;
  std::sort(v.begin(), v.end());
  s.requests = v.size();
  s.rps = static_cast<double>(v.size()) / seconds;
  s.bytes_per_s = static_cast<double>(stats.bytes) / seconds;
  const auto at = [&](double q) {
    if (v.empty()) return 0.0;
    const size_t i = std::min(v.size() - 1, static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1);
    return static_cast<double>(v[i]) / 1e6;
  };
  s.p50 = at(0.50);
  s.p90 = at(0.90);
  s.p99 = at(0.99);
  s.p999 = at(0.999);
  s.max = v.empty() ? 0 : static_cast<double>(v.back()) / 1e6;
  return s;
}

void print_text(const Options& o, const LoadRun& run, const Stats& stats, const Summary& s) {
  uint64_t transport = 0;
  for (const auto& [m, n] : stats.transport_errors) transport += n;
  fmt::print("url        {}\n", o.url);
  if (o.rate > 0) {
    fmt::print("mode       open loop at {:g} req/s, {} connections, {} (after {} warm-up)\n", o.rate,
               run.open_connections(), o.duration, o.warmup);
  } else {
    fmt::print("mode       closed loop, {} connections, {} (after {} warm-up)\n", run.open_connections(), o.duration,
               o.warmup);
  }
  fmt::print("requests   {} ({:.1f} req/s), errors {} (non-2xx {}, transport {})\n", s.requests, s.rps,
             stats.non_2xx + transport, stats.non_2xx, transport);
  fmt::print("latency    p50 {:.3f} ms  p90 {:.3f} ms  p99 {:.3f} ms  p99.9 {:.3f} ms  max {:.3f} ms\n", s.p50, s.p90,
             s.p99, s.p999, s.max);
  fmt::print("transfer   {:.2f} MB/s\n", s.bytes_per_s / 1e6);
  if (o.rate > 0 && run.backlog() > 0) {
    fmt::print("backlog    {} of {} scheduled requests were never sent: the rate was not sustained\n", run.backlog(),
               run.scheduled_in_window());
  }
  std::string statuses;
  for (const auto& [code, n] : stats.statuses) statuses += fmt::format(" {}: {}", code, n);
  fmt::print("status    {}\n", statuses);
  for (const auto& [message, n] : stats.transport_errors) fmt::print("error      {} x {}\n", n, message);
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void print_json(const Options& o, const LoadRun& run, const Stats& stats, const Summary& s) {
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> w(text);
  uint64_t transport = 0;
  for (const auto& [m, n] : stats.transport_errors) transport += n;
  w.StartObject();
  w.Key("url");
  w.String(o.url);
  w.Key("mode");
  w.String(o.rate > 0 ? "open" : "closed");
  w.Key("rate");
  w.Double(o.rate);
  w.Key("connections");
  w.Uint64(run.open_connections());
  w.Key("duration_s");
  w.Double(run.window_seconds());
  w.Key("requests");
  w.Uint64(s.requests);
  w.Key("errors");
  w.Uint64(stats.non_2xx + transport);
  w.Key("non_2xx");
  w.Uint64(stats.non_2xx);
  w.Key("status");
  w.StartObject();
  for (const auto& [code, n] : stats.statuses) {
    const std::string name = std::to_string(code);
    w.Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
    w.Uint64(n);
  }
  w.EndObject();
  w.Key("transport_errors");
  w.StartObject();
  for (const auto& [message, n] : stats.transport_errors) {
    w.Key(message.c_str(), static_cast<rapidjson::SizeType>(message.size()));
    w.Uint64(n);
  }
  w.EndObject();
  w.Key("not_sent");
  w.Uint64(run.backlog());
  w.Key("completed_total");
  w.Uint64(stats.completed_total);
  w.Key("client_cpu_s");
  w.Double(cpu_seconds());
  w.Key("req_per_s");
  w.Double(s.rps);
  w.Key("bytes_per_s");
  w.Double(s.bytes_per_s);
  w.Key("latency_ms");
  w.StartObject();
  w.Key("p50");
  w.Double(s.p50);
  w.Key("p90");
  w.Double(s.p90);
  w.Key("p99");
  w.Double(s.p99);
  w.Key("p99.9");
  w.Double(s.p999);
  w.Key("max");
  w.Double(s.max);
  w.EndObject();
  w.EndObject();
  std::cout << text.GetString() << "\n";
}

int run_client(const Options& o) {
  std::string problem;
  const auto target = parse_url(o.url, problem);
  if (!target) {
    std::cerr << "visibility_load: " << problem << "\n";
    return 2;
  }
  for (const std::string* d : {&o.duration, &o.warmup, &o.timeout}) {
    const auto parsed = koordq::base::parse_go_duration(*d);
    if (!parsed.ok() || *parsed < 0) {
      std::cerr << "visibility_load: \"" << *d << "\" is not a Go duration ≥ 0 (for example 10s or 500ms)\n";
      return 2;
    }
  }
  if (o.cert.empty() != o.key.empty()) {
    std::cerr << "visibility_load: --cert and --key go together\n";
    return 2;
  }
  if (o.ca.empty() && !o.insecure) {
    std::cerr << "visibility_load: give --ca FILE to verify the server, or --insecure not to\n";
    return 2;
  }
  ssl::context tls(ssl::context::tls_client);
  try {
    if (o.insecure) {
      tls.set_verify_mode(ssl::verify_none);
    } else {
      tls.load_verify_file(o.ca);
      tls.set_verify_mode(ssl::verify_peer);
    }
    if (!o.cert.empty()) {
      tls.use_certificate_chain_file(o.cert);
      tls.use_private_key_file(o.key, ssl::context::pem);
    }
  } catch (const boost::system::system_error& e) {
    std::cerr << "visibility_load: loading the TLS material failed: " << e.what()
              << " (check --ca, --cert and --key name readable PEM files)\n";
    return 2;
  }
  net::io_context resolver_ioc;
  tcp::resolver resolver(resolver_ioc);
  beast::error_code ec;
  auto endpoints = resolver.resolve(target->host, target->port, ec);
  if (ec) {
    std::cerr << "visibility_load: cannot resolve " << target->host << ":" << target->port << ": " << ec.message()
              << "\n";
    return 2;
  }
  LoadRun run(o, *target, endpoints, tls);
  if (!run.run()) {
    std::cerr << "visibility_load: no connection to " << o.url << " could be opened";
    for (const auto& [message, n] : run.stats().transport_errors) std::cerr << "; " << message;
    std::cerr << "\n";
    return 1;
  }
  Stats stats = run.stats();
  const Summary s = summarize(stats, run.window_seconds());
  if (o.json) {
    print_json(o, run, stats, s);
  } else {
    print_text(o, run, stats, s);
  }
  return 0;
}

// The baseline server: the transport work of the visibility API (TLS with client-certificate
// verification, HTTP/1.1 keep-alive, one body written per request) without the API.
class FixedSession : public std::enable_shared_from_this<FixedSession> {
 public:
  FixedSession(tcp::socket socket, ssl::context& tls, const std::string& body)
      : stream_(std::move(socket), tls), body_(body) {}

  void start() {
    stream_.async_handshake(ssl::stream_base::server, [self = shared_from_this()](beast::error_code ec) {
      if (!ec) self->read();
    });
  }

 private:
  void read() {
    request_ = {};
    http::async_read(stream_, buffer_, request_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec) return self->close();
      self->answer();
    });
  }

  void answer() {
    response_ = {http::status::ok, request_.version()};
    response_.set(http::field::content_type, "application/json");
    response_.body() = body_;
    response_.keep_alive(request_.keep_alive());
    response_.prepare_payload();
    http::async_write(stream_, response_, [self = shared_from_this()](beast::error_code ec, size_t) {
      if (ec || !self->response_.keep_alive()) return self->close();
      self->read();
    });
  }

  void close() {
    stream_.async_shutdown([self = shared_from_this()](beast::error_code) {});
  }

  ssl::stream<tcp::socket> stream_;
  const std::string& body_;
  beast::flat_buffer buffer_;
  http::request<http::empty_body> request_;
  http::response<http::string_body> response_;
};

void accept_fixed(tcp::acceptor& acceptor, ssl::context& tls, const std::string& body) {
  acceptor.async_accept([&acceptor, &tls, &body](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted) return;
    if (!ec) {
      socket.set_option(tcp::no_delay(true), ec);
      std::make_shared<FixedSession>(std::move(socket), tls, body)->start();
    }
    accept_fixed(acceptor, tls, body);
  });
}

int serve_fixed(const Options& o) {
  if (o.cert.empty() || o.key.empty() || o.ca.empty()) {
    std::cerr << "visibility_load: --serve-fixed needs --cert and --key (the serving certificate) and --ca (the "
                 "client CA)\n";
    return 2;
  }
  ssl::context tls(ssl::context::tls_server);
  try {
    tls.use_certificate_chain_file(o.cert);
    tls.use_private_key_file(o.key, ssl::context::pem);
    tls.load_verify_file(o.ca);
    tls.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
  } catch (const boost::system::system_error& e) {
    std::cerr << "visibility_load: loading the TLS material failed: " << e.what() << "\n";
    return 2;
  }
  // A JSON-looking body of exactly the size asked for.
  std::string body = "{\"items\":\"";
  body.resize(std::max(o.serve_fixed, body.size() + 2) - 2, 'x');
  body += "\"}";
  net::io_context ioc(1);
  tcp::acceptor acceptor(ioc, tcp::endpoint(net::ip::make_address("127.0.0.1"), o.port));
  accept_fixed(acceptor, tls, body);
  net::signal_set signals(ioc, SIGINT, SIGTERM);
  signals.async_wait([&](beast::error_code, int) { ioc.stop(); });
  std::cout << "listening on 127.0.0.1:" << acceptor.local_endpoint().port() << std::endl;
  ioc.run();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{
      "HTTPS load client with client certificates for the visibility API: closed loop, or open loop at a fixed "
      "rate (--rate) with latency from the scheduled send time. {seq} in --url is replaced by the request number "
      "(a different URL per request, e.g. to miss a response cache). With --serve-fixed BYTES it is instead a "
      "minimal TLS server answering every request with a BYTES-byte body (the baseline)."};
  app.add_option("--url", o.url, "https://host:port/path?query");
  app.add_option("--cert", o.cert, "client certificate (PEM); with --serve-fixed the serving certificate");
  app.add_option("--key", o.key, "key of --cert (PEM)");
  app.add_option("--ca", o.ca, "CA verifying the server; with --serve-fixed the CA of client certificates");
  app.add_flag("--insecure", o.insecure, "do not verify the server's certificate");
  app.add_option("--connections,-c", o.connections, "keep-alive connections, one request in flight each")
      ->check(CLI::Range(size_t{1}, size_t{10000}))
      ->capture_default_str();
  app.add_option("--duration,-d", o.duration, "measured time (Go duration)")->capture_default_str();
  app.add_option("--warmup", o.warmup, "time before measuring starts (Go duration)")->capture_default_str();
  app.add_option("--timeout", o.timeout, "connect and per-request timeout (Go duration)")->capture_default_str();
  app.add_option("--rate,-R", o.rate, "open loop: requests per second in total (0: closed loop)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--header,-H", o.headers, "extra request header \"Name: value\" (repeatable)");
  app.add_flag("--json", o.json, "print one JSON object instead of text");
  app.add_option("--serve-fixed", o.serve_fixed, "serve a fixed body of this many bytes instead of loading a server");
  app.add_option("--port", o.port, "with --serve-fixed: port on 127.0.0.1 (0: any free port, printed)");
  CLI11_PARSE(app, argc, argv);
  if (o.serve_fixed > 0) return serve_fixed(o);
  if (o.url.empty()) {
    std::cerr << "visibility_load: --url is required (or --serve-fixed BYTES to serve the baseline)\n";
    return 2;
  }
  return run_client(o);
}
