#include "kube/client/http_client.hpp"

#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>
#include <poll.h>

#include "kube/client/fenced_stream.hpp"
#include "kube/client/rate_limiter.hpp"

namespace koordq::kube {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

// One keep-alive connection with its own I/O context, so that a blocking call can run its
// asynchronous operations (which honour tcp_stream's deadlines) on the calling thread and a
// Cancellation can stop exactly that call. `context` is declared first so that it outlives the
// streams whose pending operations it owns.
struct Connection {
  asio::io_context context;
  std::optional<FencedStream> plain;
  std::optional<beast::ssl_stream<FencedStream>> secure;
  beast::flat_buffer buffer;
  bool reused = false;

  FencedStream& fenced() { return secure ? secure->next_layer() : *plain; }
  beast::tcp_stream& tcp() { return fenced().next_layer(); }
};

// Runs one asynchronous operation started by `start(handler)` to completion on the calling thread.
template <class Start>
error_code run(Connection& connection, Cancellation* cancellation, Start&& start) {
  error_code result = asio::error::operation_aborted;
  bool done = false;
  connection.context.restart();
  start([&](error_code ec, auto&&...) {
    result = ec;
    done = true;
  });
  if (cancellation != nullptr && !cancellation->attach(&connection.context)) return asio::error::operation_aborted;
  connection.context.run();
  if (cancellation != nullptr) cancellation->detach();
  return done ? result : asio::error::operation_aborted;
}

bool is_ip_address(const std::string& host) {
  error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

std::string describe(const error_code& ec) {
  if (ec == asio::error::operation_aborted) return "cancelled";
  if (ec == beast::error::timeout) return "timed out";
  return ec.message();
}

}  // namespace

struct HttpClient::Impl {
  ClientConfig config;
  HttpOptions options;
  std::string host_port;
  std::string url_prefix;  // "https://host:port", for messages
  std::optional<ssl::context> tls;

  std::mutex pool_mutex;
  std::vector<std::unique_ptr<Connection>> idle;

  std::mutex limiter_mutex;
  RateLimiter limiter;
  std::mt19937_64 random{std::random_device{}()};

  Impl(ClientConfig c, HttpOptions o)
      : config(std::move(c)),
        options(std::move(o)),
        host_port(config.host_port()),
        url_prefix(std::string(config.tls ? "https://" : "http://") + host_port),
        limiter(options.qps, options.burst, Clock::now()) {}

  std::string what(const Request& request) const {
    std::string target = request.target;
    // The query may carry a continue token: keep messages short and free of it.
    if (size_t q = target.find('?'); q != std::string::npos) target.resize(q);
    return std::string(verb_name(request.verb)) + " " + url_prefix + config.base_path + target;
  }

  // Waits for the rate limiter; false when cancelled.
  bool wait_for_token(Cancellation* cancellation) {
    Clock::duration delay;
    {
      std::lock_guard lock(limiter_mutex);
      delay = limiter.reserve(Clock::now());
    }
    if (delay <= Clock::duration::zero()) return cancellation == nullptr || !cancellation->cancelled();
    if (cancellation != nullptr) return cancellation->wait_for(delay);
    std::this_thread::sleep_for(delay);
    return true;
  }

  bool sleep(std::chrono::milliseconds delay, Cancellation* cancellation) {
    if (cancellation != nullptr) return cancellation->wait_for(delay);
    std::this_thread::sleep_for(delay);
    return true;
  }

  double jitter() {
    std::lock_guard lock(limiter_mutex);
    return std::uniform_real_distribution<double>(0.0, 1.0)(random);
  }

  // A pooled connection the server has not closed meanwhile (an idle connection has nothing to
  // read: a readable socket means end of stream, or bytes nobody asked for).
  std::unique_ptr<Connection> take_idle() {
    std::lock_guard lock(pool_mutex);
    while (!idle.empty()) {
      std::unique_ptr<Connection> connection = std::move(idle.back());
      idle.pop_back();
      pollfd poll_fd{connection->tcp().socket().native_handle(), POLLIN, 0};
      if (::poll(&poll_fd, 1, 0) != 0) continue;
      connection->reused = true;
      return connection;
    }
    return nullptr;
  }

  void give_back(std::unique_ptr<Connection> connection) {
    connection->buffer.consume(connection->buffer.size());
    std::lock_guard lock(pool_mutex);
    if (idle.size() < options.max_idle_connections) idle.push_back(std::move(connection));
  }

  Result<std::unique_ptr<Connection>> open(Cancellation* cancellation) {
    auto connection = std::make_unique<Connection>();
    // Beast reads at most the buffer's free capacity (512 bytes when it is empty): a LIST page of
    // megabytes would take thousands of reads.
    connection->buffer.reserve(256 * 1024);
    asio::ip::tcp::resolver resolver(connection->context);
    asio::ip::tcp::resolver::results_type endpoints;
    error_code ec = run(*connection, cancellation, [&](auto handler) {
      resolver.async_resolve(config.host, config.port,
                             [&, handler](error_code e, asio::ip::tcp::resolver::results_type r) mutable {
                               endpoints = std::move(r);
                               handler(e);
                             });
    });
    if (ec) return make_error("resolve " + config.host + ": " + describe(ec));
    if (config.tls) {
      connection->secure.emplace(connection->context, *tls);
    } else {
      connection->plain.emplace(connection->context);
    }
    beast::tcp_stream& tcp = connection->tcp();
    tcp.expires_after(options.connect_timeout);
    ec = run(*connection, cancellation, [&](auto handler) { tcp.async_connect(endpoints, handler); });
    if (ec) return make_error("connect: " + describe(ec));
    tcp.socket().set_option(asio::ip::tcp::no_delay(true), ec);
    if (config.tls) {
      auto& stream = *connection->secure;
      const std::string& name = config.tls_server_name.empty() ? config.host : config.tls_server_name;
      if (!is_ip_address(name) && SSL_set_tlsext_host_name(stream.native_handle(), name.c_str()) != 1) {
        return make_error("TLS: cannot set the server name " + name);
      }
      if (!config.insecure_skip_tls_verify) {
        stream.set_verify_mode(ssl::verify_peer);
        stream.set_verify_callback(ssl::host_name_verification(name));
      } else {
        stream.set_verify_mode(ssl::verify_none);
      }
      tcp.expires_after(options.connect_timeout);
      ec = run(*connection, cancellation,
               [&](auto handler) { stream.async_handshake(ssl::stream_base::client, handler); });
      if (ec) {
        std::string reason = describe(ec);
        if (ec.category() == asio::error::get_ssl_category()) {
          reason += "; check the CA (certificate-authority) and that the server certificate names " + name;
        }
        return make_error("TLS handshake: " + reason);
      }
    }
    return connection;
  }

  Result<http::request<http::string_body>> build(const Request& request) {
    http::request<http::string_body> message;
    switch (request.verb) {
      case Verb::kGet:
        message.method(http::verb::get);
        break;
      case Verb::kPost:
        message.method(http::verb::post);
        break;
      case Verb::kPut:
        message.method(http::verb::put);
        break;
      case Verb::kPatch:
        message.method(http::verb::patch);
        break;
      case Verb::kDelete:
        message.method(http::verb::delete_);
        break;
    }
    message.target(config.base_path + request.target);
    message.version(11);
    message.set(http::field::host, host_port);
    message.set(http::field::user_agent, options.user_agent);
    message.set(http::field::accept, "application/json");
    for (const auto& [name, value] : request.headers) message.set(name, value);
    if (config.token) {
      Result<std::string> token = config.token->value();
      if (!token.ok()) return token.error();
      message.set(http::field::authorization, "Bearer " + *token);
    }
    if (!request.body.empty() || request.verb == Verb::kPatch || request.verb == Verb::kPost ||
        request.verb == Verb::kPut) {
      std::string type = request.content_type;
      if (type.empty()) type = request.verb == Verb::kPatch ? "application/merge-patch+json" : "application/json";
      message.set(http::field::content_type, type);
      message.body() = request.body;
    }
    message.keep_alive(true);
    message.prepare_payload();
    return message;
  }

  template <class Fn>
  error_code with_stream(Connection& connection, Fn&& fn) {
    if (connection.secure) return fn(*connection.secure);
    return fn(*connection.plain);
  }

  // Sends `message` on a pooled connection (a fresh one when a reused one turns out closed) and
  // reads the answer's header into `parser` (made anew for each try). The connection is returned
  // for the body read.
  template <class Parser>
  Result<std::unique_ptr<Connection>> send_and_read_header(const Request& request,
                                                           http::request<http::string_body>& message,
                                                           std::optional<Parser>& parser,
                                                           std::chrono::milliseconds header_timeout,
                                                           Cancellation* cancellation) {
    for (int fresh = 0; fresh < 2; ++fresh) {
      parser.emplace();
      parser->body_limit(options.max_response_bytes);
      std::unique_ptr<Connection> connection = fresh == 0 ? take_idle() : nullptr;
      if (!connection) {
        Result<std::unique_ptr<Connection>> opened = open(cancellation);
        if (!opened.ok()) return opened.error();
        connection = std::move(*opened);
      }
      // Connecting and the rate limit can take long: checked before the request is serialised (a
      // closed fence sends nothing), and again as each piece of it reaches the socket.
      if (Status admitted = request.fence.admits(); !admitted.ok()) {
        give_back(std::move(connection));
        return admitted.error();
      }
      connection->tcp().expires_after(options.read_timeout);
      connection->fenced().fence_writes(&request.fence);
      error_code ec = with_stream(*connection, [&](auto& stream) {
        return run(*connection, cancellation, [&](auto handler) { http::async_write(stream, message, handler); });
      });
      connection->fenced().fence_writes(nullptr);
      bool wrote = !ec;
      if (!ec) {
        connection->tcp().expires_after(header_timeout);
        ec = with_stream(*connection, [&](auto& stream) {
          return run(*connection, cancellation,
                     [&](auto handler) { http::async_read_header(stream, connection->buffer, *parser, handler); });
        });
      }
      if (!ec) return connection;
      // A kept-alive connection the server has closed meanwhile: once more on a new one, when
      // nothing can have been processed (the write failed) or the request is repeatable.
      bool stale = connection->reused && (ec == http::error::end_of_stream || ec == asio::error::eof ||
                                          ec == asio::error::connection_reset || ec == asio::error::broken_pipe);
      if (stale && (!wrote || is_repeatable(request.verb, request.has_precondition))) continue;
      return make_error((wrote ? "read: " : "write: ") + describe(ec));
    }
    return make_error("connection closed by the server");
  }

  Result<Response> attempt(const Request& request, Cancellation* cancellation) {
    Result<http::request<http::string_body>> message = build(request);
    if (!message.ok()) return message.error();
    std::optional<http::response_parser<http::string_body>> parser;
    Result<std::unique_ptr<Connection>> connection =
        send_and_read_header(request, *message, parser, options.read_timeout, cancellation);
    if (!connection.ok()) return connection.error();
    Connection& c = **connection;
    error_code ec = with_stream(c, [&](auto& stream) {
      return run(c, cancellation, [&](auto handler) { http::async_read(stream, c.buffer, *parser, handler); });
    });
    if (ec) {
      if (ec == http::error::body_limit) {
        return make_error("read: the answer is larger than " + std::to_string(options.max_response_bytes) + " bytes");
      }
      return make_error("read: " + describe(ec));
    }
    http::response<http::string_body> answer = parser->release();
    Response response;
    response.status = static_cast<int>(answer.result_int());
    if (auto found = answer.find(http::field::retry_after); found != answer.end()) {
      response.retry_after = std::string(found->value());
    }
    response.body = std::move(answer.body());
    if (answer.keep_alive()) give_back(std::move(*connection));
    return response;
  }

  void observe(const Request& request, const std::string& code, Clock::time_point start) {
    if (!options.observer.on_request) return;
    options.observer.on_request(
        RequestRecord{verb_name(request.verb), host_port, code, std::chrono::duration<double>(Clock::now() - start)});
  }
};

HttpClient::HttpClient(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HttpClient::~HttpClient() = default;

const ClientConfig& HttpClient::config() const {
  return impl_->config;
}

Result<std::unique_ptr<HttpClient>> HttpClient::create(const ClientConfig& config, HttpOptions options) {
  auto impl = std::make_unique<Impl>(config, std::move(options));
  if (config.tls) {
    impl->tls.emplace(ssl::context::tls_client);
    ssl::context& tls = *impl->tls;
    error_code ec;
    tls.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3 |
                        ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1,
                    ec);
    if (!config.ca_pem.empty()) {
      tls.add_certificate_authority(asio::buffer(config.ca_pem), ec);
      if (ec) {
        return make_error(config.source + ": certificate-authority: not a PEM certificate (" + ec.message() +
                          "); it must hold the CA that signed the API server's certificate");
      }
    } else {
      tls.set_default_verify_paths(ec);
      if (ec) return make_error("TLS: cannot load the system's trust store: " + ec.message());
    }
    if (!config.client_cert_pem.empty()) {
      tls.use_certificate_chain(asio::buffer(config.client_cert_pem), ec);
      if (ec) {
        return make_error(config.source + ": client-certificate: not a PEM certificate (" + ec.message() + ")");
      }
      tls.use_private_key(asio::buffer(config.client_key_pem), ssl::context::pem, ec);
      if (ec) {
        return make_error(config.source + ": client-key: not a PEM private key matching the client certificate (" +
                          ec.message() + ")");
      }
    }
  }
  return std::unique_ptr<HttpClient>(new HttpClient(std::move(impl)));
}

Result<Response> HttpClient::send(const Request& request, Cancellation* cancellation) {
  Impl& impl = *impl_;
  for (int attempt = 1;; ++attempt) {
    if (!impl.wait_for_token(cancellation)) return make_error(impl.what(request) + ": cancelled");
    Clock::time_point start = Clock::now();
    Result<Response> response = impl.attempt(request, cancellation);
    // Held back by the fence (not sent, so not counted as a request), or failed as it closed.
    if (Status admitted = request.fence.admits(); !response.ok() && !admitted.ok()) {
      return make_error(impl.what(request) + ": " + admitted.message());
    }
    impl.observe(request, response.ok() ? std::to_string(response->status) : "<error>", start);
    if (cancellation != nullptr && cancellation->cancelled()) return make_error(impl.what(request) + ": cancelled");
    AttemptOutcome outcome;
    if (response.ok()) {
      outcome.status = response->status;
      if (response->retry_after) outcome.retry_after = parse_retry_after(*response->retry_after);
    }
    std::optional<std::chrono::milliseconds> delay =
        retry_delay(impl.options.retry, request.verb, request.has_precondition, attempt, outcome, impl.jitter());
    if (!delay) {
      if (!response.ok()) return make_error(impl.what(request) + ": " + response.message());
      return response;
    }
    if (!impl.sleep(*delay, cancellation)) {
      const std::string last = response.ok() ? "HTTP " + std::to_string(response->status) : response.message();
      return make_error(impl.what(request) + ": cancelled while waiting to retry after " + last);
    }
  }
}

Result<StreamOutcome> HttpClient::stream(const Request& request, const std::function<Status(std::string_view)>& on_body,
                                         std::chrono::milliseconds idle_timeout, Cancellation* cancellation) {
  Impl& impl = *impl_;
  if (!impl.wait_for_token(cancellation)) return make_error(impl.what(request) + ": cancelled");
  Result<http::request<http::string_body>> message = impl.build(request);
  if (!message.ok()) return message.error();
  Clock::time_point start = Clock::now();
  std::optional<http::response_parser<http::buffer_body>> parser_slot;
  Result<std::unique_ptr<Connection>> connection =
      impl.send_and_read_header(request, *message, parser_slot, idle_timeout, cancellation);
  impl.observe(request, connection.ok() ? std::to_string(parser_slot->get().result_int()) : "<error>", start);
  if (!connection.ok()) return make_error(impl.what(request) + ": " + connection.message());
  http::response_parser<http::buffer_body>& parser = *parser_slot;
  parser.body_limit(boost::none);
  Connection& c = **connection;
  StreamOutcome outcome;
  outcome.status = static_cast<int>(parser.get().result_int());
  bool success = outcome.status >= 200 && outcome.status < 300;
  // One socket read per 64 KiB, then the parser runs over what was read: a read per HTTP chunk
  // (one per event) would cost an I/O cycle for every event.
  std::vector<char> body(64 * 1024);
  auto deliver = [&](size_t got) -> Status {
    if (got == 0) return ok_status();
    std::string_view piece(body.data(), got);
    if (success) return on_body(piece);
    if (outcome.error_body.size() < (size_t{1} << 20)) outcome.error_body.append(piece);
    return ok_status();
  };
  while (!parser.is_done()) {
    while (c.buffer.size() > 0 && !parser.is_done()) {
      parser.get().body().data = body.data();
      parser.get().body().size = body.size();
      error_code ec;
      size_t used = parser.put(c.buffer.data(), ec);
      c.buffer.consume(used);
      Status delivered = deliver(body.size() - parser.get().body().size);
      if (!delivered.ok()) return delivered.error();
      if (ec == http::error::need_more) break;
      if (ec && ec != http::error::need_buffer) return make_error(impl.what(request) + ": stream: " + ec.message());
    }
    if (parser.is_done()) break;
    c.tcp().expires_after(idle_timeout);
    size_t read = 0;
    error_code ec = impl.with_stream(c, [&](auto& stream) {
      return run(c, cancellation, [&](auto handler) {
        stream.async_read_some(c.buffer.prepare(256 * 1024), [&read, handler](error_code e, size_t n) mutable {
          read = n;
          handler(e);
        });
      });
    });
    c.buffer.commit(read);
    if (ec == asio::error::eof || ec == ssl::error::stream_truncated) {
      parser.get().body().data = body.data();
      parser.get().body().size = body.size();
      error_code eof_ec;
      parser.put_eof(eof_ec);
      if (!eof_ec && parser.is_done()) break;
      return make_error(impl.what(request) + ": stream ended: the server closed the connection mid-answer");
    }
    if (ec) return make_error(impl.what(request) + ": stream ended: " + describe(ec));
  }
  if (parser.get().keep_alive()) impl.give_back(std::move(*connection));
  return outcome;
}

}  // namespace koordq::kube
