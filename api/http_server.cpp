#include "api/http_server.hpp"

#include <atomic>
#include <charconv>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <vector>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>

#include "base/log.hpp"
#include "base/thread_niceness.hpp"

namespace koordq::api {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;
using tcp = net::ip::tcp;

class SessionBase {
 public:
  virtual ~SessionBase() = default;
  virtual void close_if_idle() = 0;
};

}  // namespace

struct HttpServer::Impl {
  HttpServerOptions options;
  std::shared_ptr<HttpService> service;
  // Declared before the io_context: sessions still queued in it deregister when it is destroyed.
  std::atomic<size_t> connections{0};
  std::atomic<bool> stopping{false};
  std::mutex sessions_mu;
  std::map<SessionBase*, std::weak_ptr<SessionBase>> sessions;
  net::io_context ioc;
  tcp::acceptor acceptor{ioc};
  std::vector<std::thread> threads;
  std::unique_ptr<net::thread_pool> aside;  // HttpServerOptions::aside_threads
  // Streamed answers, each on its own thread (joined once finished, and at stop).
  struct StreamThread {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> finished;
  };
  std::mutex streams_mu;
  std::vector<StreamThread> streams;

  void start_stream_thread(std::function<void()> run);
  void join_streams(bool all);

  void accept();
  template <class Stream>
  void start_session(Stream stream, std::shared_ptr<ssl::context> context);
};

namespace {

std::string common_name_of(X509* cert) {
  X509_NAME* subject = X509_get_subject_name(cert);
  if (subject == nullptr) return {};
  int index = X509_NAME_get_index_by_NID(subject, NID_commonName, -1);
  if (index < 0) return {};
  ASN1_STRING* data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, index));
  unsigned char* utf8 = nullptr;
  int length = ASN1_STRING_to_UTF8(&utf8, data);
  if (length < 0) return {};
  std::string name(reinterpret_cast<char*>(utf8), static_cast<size_t>(length));
  OPENSSL_free(utf8);
  return name;
}

template <class Stream>
constexpr bool kIsTls = !std::is_same_v<Stream, tcp::socket>;

template <class Stream>
class Session : public SessionBase, public std::enable_shared_from_this<Session<Stream>> {
  enum class State { kHandshake, kIdle, kHeader, kBody, kHandling, kWriting, kClosing, kClosed };

 public:
  Session(HttpServer::Impl& server, Stream stream, std::shared_ptr<ssl::context> context)
      : server_(server), context_(std::move(context)), stream_(std::move(stream)), timer_(socket().get_executor()) {}

  ~Session() override {
    server_.connections.fetch_sub(1);
    std::lock_guard lock(server_.sessions_mu);
    server_.sessions.erase(this);
  }

  void start() {
    beast::error_code remote_ec;
    const auto remote = socket().remote_endpoint(remote_ec);
    peer_.loopback = !remote_ec && remote.address().is_loopback();
    arm(server_.options.header_timeout);
    if constexpr (kIsTls<Stream>) {
      state_ = State::kHandshake;
      stream_.async_handshake(ssl::stream_base::server,
                              [self = this->shared_from_this()](beast::error_code ec) { self->on_handshake(ec); });
    } else {
      state_ = State::kHeader;
      read_header();
    }
  }

  void close_if_idle() override {
    net::post(socket().get_executor(), [self = this->shared_from_this()] {
      if (self->state_ == State::kIdle || self->state_ == State::kHandshake) self->close();
    });
  }

 private:
  tcp::socket& socket() {
    if constexpr (kIsTls<Stream>) {
      return stream_.next_layer();
    } else {
      return stream_;
    }
  }

  void arm(std::chrono::milliseconds after) {
    const uint64_t generation = ++timer_generation_;
    timer_.expires_after(after);
    timer_.async_wait([self = this->shared_from_this(), generation](beast::error_code ec) {
      if (ec || generation != self->timer_generation_) return;
      self->on_timeout();
    });
  }

  void disarm() {
    ++timer_generation_;
    timer_.cancel();
  }

  void on_timeout() {
    switch (state_) {
      case State::kHeader:
      case State::kBody:
        timed_out_ = true;
        socket().cancel();  // the pending read ends with operation_aborted and answers 408
        break;
      case State::kHandling:
      case State::kClosed:
        break;
      default:
        close();
    }
  }

  void on_handshake(beast::error_code ec) {
    if (ec) return close();
    if constexpr (kIsTls<Stream>) {
      SSL* native = stream_.native_handle();
      peer_.tls = true;
      if (X509* cert = SSL_get_peer_certificate(native)) {
        peer_.certificate_presented = true;
        peer_.certificate_verified = SSL_get_verify_result(native) == X509_V_OK;
        peer_.common_name = common_name_of(cert);
        X509_free(cert);
      }
    }
    state_ = State::kHeader;
    read_header();
  }

  void next_request() {
    if (server_.stopping.load()) return close();
    if (buffer_.size() > 0) {
      state_ = State::kHeader;
      arm(server_.options.header_timeout);
      return read_header();
    }
    state_ = State::kIdle;
    arm(server_.options.idle_timeout);
    stream_.async_read_some(buffer_.prepare(4096), [self = this->shared_from_this()](beast::error_code ec, size_t n) {
      if (ec || n == 0) return self->close();
      self->buffer_.commit(n);
      self->state_ = State::kHeader;
      self->arm(self->server_.options.header_timeout);
      self->read_header();
    });
  }

  void read_header() {
    parser_.emplace();
    parser_->header_limit(static_cast<uint32_t>(server_.options.header_limit));
    parser_->body_limit(server_.options.body_limit);
    http::async_read_header(stream_, buffer_, *parser_,
                            [self = this->shared_from_this()](beast::error_code ec, size_t) { self->on_header(ec); });
  }

  void on_header(beast::error_code ec) {
    if (timed_out_) return answer_limit(ServerLimit::kHeaderTimeout);
    if (ec == http::error::header_limit) return answer_limit(ServerLimit::kHeaderTooLarge);
    if (ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::operation_aborted ||
        ec == net::error::connection_reset || ec == ssl::error::stream_truncated) {
      return close();
    }
    if (ec) return answer_limit(ServerLimit::kMalformed);
    state_ = State::kBody;
    if (parser_->is_done()) return on_body({});
    http::async_read(stream_, buffer_, *parser_,
                     [self = this->shared_from_this()](beast::error_code ec, size_t) { self->on_body(ec); });
  }

  void on_body(beast::error_code ec) {
    if (timed_out_) return answer_limit(ServerLimit::kHeaderTimeout);
    if (ec == http::error::body_limit) return answer_limit(ServerLimit::kBodyTooLarge);
    if (ec) return close();
    disarm();
    state_ = State::kHandling;
    HttpRequest request = parser_->release();
    parser_.reset();
    const std::string_view target(request.target().data(), request.target().size());
    const size_t question = target.find('?');
    if (question != std::string_view::npos && target.size() - question - 1 > server_.options.query_limit) {
      return respond(request, {server_.service->limit_exceeded(ServerLimit::kQueryTooLong), nullptr});
    }
    if (server_.aside && server_.service->answered_aside(request)) {
      // Worked out on the worker thread; written from this session's strand again.
      net::post(*server_.aside, [self = this->shared_from_this(), request = std::move(request)]() mutable {
        thread_local const bool niced = [&] {
          if (self->server_.options.niceness != 0) base::set_thread_niceness(self->server_.options.niceness);
          return true;
        }();
        (void)niced;
        HttpAnswer answer = self->answer_of(request);
        net::post(self->socket().get_executor(),
                  [self, request = std::move(request), answer = std::move(answer)]() mutable {
                    self->respond(request, std::move(answer));
                  });
      });
      return;
    }
    respond(request, answer_of(request));
  }

  HttpAnswer answer_of(const HttpRequest& request) {
    try {
      return server_.service->answer(request, peer_);
    } catch (const std::exception& e) {
      KQ_LOG_ERROR("{} server: answering {} failed: {}", server_.options.name, std::string(request.target()), e.what());
      HttpResponse response(http::status::internal_server_error, 11);
      response.set(http::field::content_type, "text/plain; charset=utf-8");
      response.body() = "internal error\n";
      return {std::move(response), nullptr};
    }
  }

  void respond(const HttpRequest& request, HttpAnswer answer) {
    response_ = std::move(answer.response);
    if (answer.stream) {
      if constexpr (!kIsTls<Stream>) return start_stream(std::move(answer.stream));
    }
    response_.version(request.version());
    response_.keep_alive(request.keep_alive() && response_.keep_alive() && !server_.stopping.load());
    write(!response_.keep_alive());
  }

  // A streamed answer: the head, then chunks written by the handler on a thread of its own with
  // blocking writes (at most 10 s each), then the last chunk; the connection closes after it.
  void start_stream(StreamHandler handler) {
    state_ = State::kHandling;
    disarm();
    std::string head = "HTTP/1.1 " + std::to_string(response_.result_int()) + " " +
                       std::string(http::obsolete_reason(response_.result())) + "\r\n";
    for (const auto& field : response_) {
      if (field.name() == http::field::content_length || field.name() == http::field::transfer_encoding) continue;
      head += std::string(field.name_string()) + ": " + std::string(field.value()) + "\r\n";
    }
    head += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    auto self = this->shared_from_this();
    server_.start_stream_thread([self, handler = std::move(handler), head = std::move(head)] {
      self->run_stream(head, handler);
      net::post(self->socket().get_executor(), [self] { self->finish(); });
    });
  }

  class SocketStreamWriter : public StreamWriter {
   public:
    SocketStreamWriter(tcp::socket& socket, const std::atomic<bool>& stopping) : socket_(socket), stopping_(stopping) {}
    bool write(std::string_view chunk) override {
      if (chunk.empty() || broken_) return !broken_;
      char size[32];
      const int n = std::snprintf(size, sizeof size, "%zx\r\n", chunk.size());
      return raw(std::string_view(size, static_cast<size_t>(n))) && raw(chunk) && raw("\r\n");
    }
    bool done() override {
      if (broken_ || stopping_.load()) return true;
      pollfd p{socket_.native_handle(), POLLIN | POLLRDHUP, 0};
      if (::poll(&p, 1, 0) <= 0) return false;
      if (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) return broken_ = true;
      char byte;
      const ssize_t peeked = ::recv(socket_.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
      if (peeked == 0) broken_ = true;
      return broken_;
    }
    bool raw(std::string_view bytes) {
      boost::system::error_code ec;
      net::write(socket_, net::buffer(bytes.data(), bytes.size()), ec);
      if (ec) broken_ = true;
      return !broken_;
    }

   private:
    tcp::socket& socket_;
    const std::atomic<bool>& stopping_;
    bool broken_ = false;
  };

  void run_stream(const std::string& head, const StreamHandler& handler) {
    tcp::socket& s = socket();
    boost::system::error_code ignored;
    s.non_blocking(false, ignored);
    timeval timeout{10, 0};
    ::setsockopt(s.native_handle(), SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
    SocketStreamWriter out(s, server_.stopping);
    if (!out.raw(head)) return;
    try {
      handler(out);
    } catch (const std::exception& e) {
      KQ_LOG_ERROR("{} server: a stream failed: {}", server_.options.name, e.what());
    }
    out.raw("0\r\n\r\n");
  }

  void answer_limit(ServerLimit limit) {
    timed_out_ = false;
    disarm();
    response_ = server_.service->limit_exceeded(limit);
    const bool close_after = limit != ServerLimit::kQueryTooLong;
    response_.keep_alive(!close_after);
    write(close_after);
  }

  void write(bool close_after) {
    if (!response_.has_content_length() && !response_.chunked()) response_.prepare_payload();
    state_ = State::kWriting;
    arm(server_.options.idle_timeout);
    http::async_write(stream_, response_, [self = this->shared_from_this(), close_after](beast::error_code ec, size_t) {
      self->disarm();
      if (ec || close_after) return self->close();
      self->next_request();
    });
  }

  void close() {
    if (state_ == State::kClosed || state_ == State::kClosing) return;
    disarm();
    if constexpr (kIsTls<Stream>) {
      if (state_ != State::kHandshake) {
        state_ = State::kClosing;
        arm(std::chrono::milliseconds(1000));
        stream_.async_shutdown([self = this->shared_from_this()](beast::error_code) {
          self->disarm();
          self->finish();
        });
        return;
      }
    }
    finish();
  }

  void finish() {
    state_ = State::kClosed;
    beast::error_code ignored;
    socket().shutdown(tcp::socket::shutdown_both, ignored);
    socket().close(ignored);
  }

  HttpServer::Impl& server_;
  std::shared_ptr<ssl::context> context_;  // kept while the connection lives
  Stream stream_;
  net::steady_timer timer_;
  uint64_t timer_generation_ = 0;
  State state_ = State::kHeader;
  bool timed_out_ = false;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  HttpResponse response_;
  PeerIdentity peer_;
};

}  // namespace

template <class Stream>
void HttpServer::Impl::start_session(Stream stream, std::shared_ptr<ssl::context> context) {
  auto session = std::make_shared<Session<Stream>>(*this, std::move(stream), std::move(context));
  {
    std::lock_guard lock(sessions_mu);
    sessions[session.get()] = session;
  }
  session->start();
}

void HttpServer::Impl::join_streams(bool all) {
  std::vector<std::thread> done;
  {
    std::lock_guard lock(streams_mu);
    for (auto it = streams.begin(); it != streams.end();) {
      if (all || it->finished->load()) {
        done.push_back(std::move(it->thread));
        it = streams.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto& t : done) t.join();
}

void HttpServer::Impl::start_stream_thread(std::function<void()> run) {
  join_streams(false);
  auto finished = std::make_shared<std::atomic<bool>>(false);
  std::thread thread([run = std::move(run), finished] {
    run();
    finished->store(true);
  });
  std::lock_guard lock(streams_mu);
  streams.push_back({std::move(thread), std::move(finished)});
}

void HttpServer::Impl::accept() {
  acceptor.async_accept(net::make_strand(ioc), [this](beast::error_code ec, tcp::socket socket) {
    if (ec == net::error::operation_aborted || stopping.load()) return;
    if (!ec) {
      if (connections.load() >= options.max_connections) {
        beast::error_code ignored;
        socket.close(ignored);  // beyond --max-connections: closed at once, without an answer
      } else {
        connections.fetch_add(1);
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        if (options.tls) {
          std::shared_ptr<ssl::context> context = options.tls();
          if (!context) {
            connections.fetch_sub(1);
            socket.close(ignored);
          } else {
            start_session(ssl::stream<tcp::socket>(std::move(socket), *context), context);
          }
        } else {
          start_session(std::move(socket), nullptr);
        }
      }
    }
    accept();
  });
}

HttpServer::HttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HttpServer::~HttpServer() {
  stop();
}

Result<std::unique_ptr<HttpServer>> HttpServer::start(HttpServerOptions options, std::shared_ptr<HttpService> service) {
  auto impl = std::make_unique<Impl>();
  impl->options = std::move(options);
  impl->service = std::move(service);
  const HttpServerOptions& o = impl->options;
  const std::string where = (o.host.empty() ? std::string("0.0.0.0") : o.host) + ":" + std::to_string(o.port);
  beast::error_code ec;
  net::ip::address address = o.host.empty() ? net::ip::address(net::ip::address_v4::any())
                                            : net::ip::make_address(o.host == "[::]" ? "::" : o.host, ec);
  if (ec) return make_error("the " + o.name + " server cannot listen on " + where + ": not an IP address");
  tcp::endpoint endpoint(address, o.port);
  impl->acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec && address.is_v6()) impl->acceptor.set_option(net::ip::v6_only(false), ec);
  if (!ec) impl->acceptor.bind(endpoint, ec);
  if (!ec) impl->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return make_error("the " + o.name + " server cannot listen on " + where + ": " + ec.message());
  impl->accept();
  if (o.aside_threads > 0) impl->aside = std::make_unique<net::thread_pool>(o.aside_threads);
  for (size_t i = 0; i < std::max<size_t>(1, o.threads); ++i) {
    impl->threads.emplace_back([raw = impl.get()] {
      if (raw->options.niceness != 0) base::set_thread_niceness(raw->options.niceness);
      raw->ioc.run();
    });
  }
  return std::unique_ptr<HttpServer>(new HttpServer(std::move(impl)));
}

uint16_t HttpServer::port() const {
  beast::error_code ec;
  return impl_->acceptor.local_endpoint(ec).port();
}

size_t HttpServer::open_connections() const {
  return impl_->connections.load();
}

void HttpServer::stop(std::chrono::milliseconds drain) {
  if (!impl_ || impl_->threads.empty()) return;
  impl_->stopping.store(true);
  net::post(impl_->ioc, [this] {
    beast::error_code ignored;
    impl_->acceptor.close(ignored);
  });
  std::vector<std::shared_ptr<SessionBase>> live;
  {
    std::lock_guard lock(impl_->sessions_mu);
    for (auto& [raw, weak] : impl_->sessions) {
      if (auto s = weak.lock()) live.push_back(std::move(s));
    }
  }
  for (auto& s : live) s->close_if_idle();
  live.clear();
  impl_->join_streams(true);  // streams see `stopping` and end
  const auto deadline = std::chrono::steady_clock::now() + drain;
  while (impl_->connections.load() > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  impl_->ioc.stop();
  for (auto& t : impl_->threads) t.join();
  impl_->threads.clear();
  if (impl_->aside) impl_->aside->join();  // an answer still being worked out is dropped with its session
}

Result<std::pair<std::string, uint16_t>> split_bind_address(const std::string& address) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos) {
    return make_error("\"" + address + "\" is not host:port (for example :10259 or 127.0.0.1:10259)");
  }
  std::string host = address.substr(0, colon);
  const std::string port_text = address.substr(colon + 1);
  unsigned port = 0;
  auto [end, error] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (error != std::errc() || end != port_text.data() + port_text.size() || port > 65535 || port_text.empty()) {
    return make_error("\"" + address + "\" has no valid port (0 to 65535)");
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  return std::make_pair(host, static_cast<uint16_t>(port));
}

}  // namespace koordq::api
