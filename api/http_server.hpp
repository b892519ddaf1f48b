// One HTTP/1.1 server (plain or TLS) on Boost.Beast, with the limits of behaviour.md §16.1:
// the request header must arrive within 10 s (from accepting the connection, or from the first
// byte of a later request), an idle keep-alive connection is closed after 60 s, the request line
// and header fields together are at most 16 KiB, the query string at most 10000 bytes, and
// connections beyond the maximum are closed at once. Answers to a broken limit come from the
// service, so each API words them its own way (a Status, or {"error": …}).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/ssl/context.hpp>
#include <boost/beast/http.hpp>

#include "base/result.hpp"

namespace koordq::api {

using HttpRequest = boost::beast::http::request<boost::beast::http::string_body>;
using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

// Who is on the other end of a TLS connection, as far as its certificate tells.
struct PeerIdentity {
  bool tls = false;
  bool certificate_presented = false;
  bool certificate_verified = false;  // signed by the client CA the connection was accepted with
  std::string common_name;
  bool loopback = false;  // the client connected from a loopback address
};

enum class ServerLimit {
  kHeaderTimeout,   // 408, then the connection is closed
  kHeaderTooLarge,  // 431, then closed
  kQueryTooLong,    // 414
  kBodyTooLarge,    // 413, then closed
  kMalformed,       // 400, then closed
};

// The body of a long-lived streamed answer (chunked), written from the stream's own thread.
class StreamWriter {
 public:
  virtual ~StreamWriter() = default;
  // One chunk; false once the peer is gone or it could not be written within 10 s.
  virtual bool write(std::string_view chunk) = 0;
  // True once the peer closed the connection or the server is stopping.
  virtual bool done() = 0;
};
using StreamHandler = std::function<void(StreamWriter& out)>;

// An answer: a complete response, or (plain HTTP only) a response head whose body `stream`
// writes over time; the idle limit does not apply while it runs.
struct HttpAnswer {
  HttpResponse response;
  StreamHandler stream;
};

class HttpService {
 public:
  virtual ~HttpService() = default;
  virtual HttpResponse handle(const HttpRequest& request, const PeerIdentity& peer) = 0;
  virtual HttpResponse limit_exceeded(ServerLimit limit) = 0;
  virtual HttpAnswer answer(const HttpRequest& request, const PeerIdentity& peer) {
    return {handle(request, peer), nullptr};
  }
  // Whether the request is answered on the server's worker threads (HttpServerOptions::
  // aside_threads), so that a long answer never holds up the others (the metrics listener's probes).
  virtual bool answered_aside(const HttpRequest&) const { return false; }
};

// The TLS material new connections are accepted with; open connections keep theirs.
using TlsContextProvider = std::function<std::shared_ptr<boost::asio::ssl::context>()>;

// What the serving surfaces of `koordq serve` run at: readers get the CPU the rounds leave, and
// (CFS weights 110 against 1024) about a tenth of a core each when both want it all.
inline constexpr int kServingNiceness = 10;

struct HttpServerOptions {
  std::string name;   // for the log: "metrics", "visibility", "debug"
  std::string host;   // "" or "0.0.0.0": every IPv4 address; "::": every address
  uint16_t port = 0;  // 0: an ephemeral port (tests)
  size_t max_connections = 1000;
  size_t threads = 1;
  size_t aside_threads = 0;  // worker threads for the answers HttpService::answered_aside names
  // The niceness of every thread of the server (base/thread_niceness.hpp); 0: as the process.
  int niceness = 0;
  std::chrono::milliseconds header_timeout{10'000};
  std::chrono::milliseconds idle_timeout{60'000};
  size_t header_limit = 16 * 1024;
  size_t query_limit = 10'000;
  size_t body_limit = 64 * 1024;
  TlsContextProvider tls;  // empty: plain HTTP
};

class HttpServer {
 public:
  // Binds and starts serving on `options.threads` threads; an Error names the address when the
  // bind fails.
  static Result<std::unique_ptr<HttpServer>> start(HttpServerOptions options, std::shared_ptr<HttpService> service);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  uint16_t port() const;
  size_t open_connections() const;
  // Stops accepting, lets answers being written finish (up to `drain`), then closes everything.
  void stop(std::chrono::milliseconds drain = std::chrono::milliseconds(2000));

  struct Impl;

 private:
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// "host:port" as --metrics-bind-address takes it (":10259", "127.0.0.1:10259", "[::1]:10259").
Result<std::pair<std::string, uint16_t>> split_bind_address(const std::string& address);

}  // namespace koordq::api
