#include "bench/visibility_load_run.hpp"

#include <cmath>
#include <string_view>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/err.h>

#include "base/go_duration.hpp"

namespace koordq::bench::visibility_load {

namespace beast = boost::beast;
namespace http = beast::http;

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

LoadRun::LoadRun(const Options& o, Target target, tcp::resolver::results_type endpoints, ssl::context& tls)
    : options_(o),
      target_(std::move(target)),
      endpoints_(std::move(endpoints)),
      tls_(tls),
      tick_(ioc_),
      end_timer_(ioc_) {
  duration_ = std::chrono::nanoseconds(*base::parse_go_duration(o.duration));
  warmup_ = std::chrono::nanoseconds(*base::parse_go_duration(o.warmup));
  timeout_ = std::chrono::nanoseconds(*base::parse_go_duration(o.timeout));
  for (const std::string& h : o.headers) extra_headers_ += h + "\r\n";
}

bool LoadRun::run() {
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

std::string LoadRun::next_request() {
  std::string path = target_.path;
  const size_t at = path.find("{seq}");
  if (at != std::string::npos) path.replace(at, 5, std::to_string(seq_));
  ++seq_;
  return "GET " + path + " HTTP/1.1\r\nHost: " + target_.host + ":" + target_.port +
         "\r\nUser-Agent: koordq-visibility-load\r\nAccept: application/json\r\n" + extra_headers_ + "\r\n";
}

void LoadRun::completed(Connection* c, Clock::time_point scheduled, unsigned status, uint64_t bytes) {
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

void LoadRun::transport_error(const std::string& message) {
  if (Clock::now() >= measure_from_) ++stats_.transport_errors[message];
  ++stats_.reconnects;
}

void LoadRun::became_idle(Connection* c) {
  if (!running_) return;
  if (options_.rate <= 0) return c->send(Clock::now());
  idle_.push_back(c);
  dispatch();
}

void LoadRun::on_tick() {
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

void LoadRun::dispatch() {
  while (!idle_.empty() && !backlog_.empty()) {
    Connection* c = idle_.back();
    idle_.pop_back();
    const auto at = backlog_.front();
    backlog_.pop_front();
    c->send(at);
  }
}

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

}  // namespace koordq::bench::visibility_load
