#include "bench/visibility_load_fixed_server.hpp"

#include <algorithm>
#include <csignal>
#include <iostream>
#include <memory>
#include <string>

#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace koordq::bench::visibility_load {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;

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

}  // namespace

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

}  // namespace koordq::bench::visibility_load
