// HTTP/1.1 to the API server over Boost.Beast and OpenSSL: a keep-alive connection pool, TLS
// verification on by default (the CA of the configuration, else the system's trust store; the
// server certificate must name the host or tls-server-name), connect and read timeouts, the
// `--qps`/`--burst` token bucket, and retries of repeatable requests (retry_policy.hpp).
// Thread-safe: any number of threads may send at once, each on its own pooled connection.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "kube/client/cancellation.hpp"
#include "kube/client/client_config.hpp"
#include "kube/client/retry_policy.hpp"
#include "kube/client/write_fence.hpp"

namespace koordq::kube {

// One attempt of a request, for rest_client_request_duration_seconds and
// rest_client_requests_total (behaviour.md §15.2). `code` is the HTTP status ("200") or
// "<error>" when no answer came. For a stream (watch), `duration` runs until the answer's headers.
struct RequestRecord {
  std::string_view verb;  // "GET"
  std::string_view host;  // "127.0.0.1:6443"
  std::string code;
  std::chrono::duration<double> duration;
};

struct RequestObserver {
  std::function<void(const RequestRecord&)> on_request;  // called on the sending thread; may be empty
};

struct HttpOptions {
  std::chrono::milliseconds connect_timeout{10'000};  // TCP connect plus TLS handshake
  std::chrono::milliseconds read_timeout{60'000};     // writing a request and reading its whole answer
  double qps = 50;
  int burst = 50;
  RetryPolicy retry;
  size_t max_idle_connections = 16;
  size_t max_response_bytes = size_t{512} << 20;  // a LIST page; larger answers are an error
  std::string user_agent = "koordq";
  RequestObserver observer;
};

struct Request {
  Verb verb = Verb::kGet;
  std::string target;  // path and query, e.g. "/api/v1/namespaces/x/pods?limit=500"
  std::string body;
  // The body's type: "application/json" when empty and a body is sent;
  // "application/merge-patch+json" for a PATCH when empty.
  std::string content_type;
  // The body carries a metadata.resourceVersion precondition: a PATCH may then be retried.
  bool has_precondition = false;
  // A leader's write: checked immediately before each attempt is written to the connection; once
  // it admits nothing the request ends unsent with its error, and is not retried.
  FencePass fence;
  // More header fields, name and value (koordq's own debug API asks for one).
  std::vector<std::pair<std::string, std::string>> headers;
};

struct Response {
  int status = 0;
  std::string body;
  std::optional<std::string> retry_after;

  bool ok() const { return status >= 200 && status < 300; }
};

// A streamed answer (a watch): the status, and for a non-2xx status the body (at most 1 MiB).
struct StreamOutcome {
  int status = 0;
  std::string error_body;
};

class HttpClient {
 public:
  // Checks the CA, client certificate and key of `config` (errors name the field, not its content).
  static Result<std::unique_ptr<HttpClient>> create(const ClientConfig& config, HttpOptions options = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends with the rate limit and retries; the Result holds the final answer whatever its status,
  // or the last connection error (`GET https://host:port/path: connect: Connection refused`).
  Result<Response> send(const Request& request, Cancellation* cancellation = nullptr);

  // One GET whose 2xx body is passed to `on_body` in pieces as it arrives, until the server ends
  // it; `on_body` returning an error stops the stream with that error. No retries. `idle_timeout`
  // bounds the wait for the headers and between two pieces. An error also reports a stream cut
  // short (`stream ended: …`) or cancelled.
  Result<StreamOutcome> stream(const Request& request, const std::function<Status(std::string_view)>& on_body,
                               std::chrono::milliseconds idle_timeout, Cancellation* cancellation = nullptr);

  const ClientConfig& config() const;

 private:
  struct Impl;
  explicit HttpClient(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace koordq::kube
