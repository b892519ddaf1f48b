// A plain-HTTP server on 127.0.0.1 for kube/client tests: it answers each request with the next
// scripted reply (raw bytes, so a test can send any framing, cut a stream or close at will) and
// records what it received. Once the script is used up it holds requests unanswered until it is
// destroyed, as a quiet watch would.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <sys/socket.h>

namespace koordq::testing {

struct ScriptedReply {
  std::vector<std::string> writes;  // sent one after the other
  bool close = false;               // close the connection after the writes
};

inline std::string http_reply(int status, const std::string& body, const std::string& headers = "") {
  return "HTTP/1.1 " + std::to_string(status) +
         " X\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + headers +
         "\r\n" + body;
}
inline std::string chunked_header(int status = 200) {
  return "HTTP/1.1 " + std::to_string(status) +
         " X\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n";
}
inline std::string chunk(const std::string& data) {
  char size[32];
  std::snprintf(size, sizeof size, "%zx\r\n", data.size());
  return size + data + "\r\n";
}
inline const std::string kLastChunk = "0\r\n\r\n";

struct ReceivedRequest {
  std::string method;
  std::string target;
  std::map<std::string, std::string> headers;
  std::string body;
};

class ScriptedHttpServer {
 public:
  ScriptedHttpServer() : acceptor_(context_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    port_ = acceptor_.local_endpoint().port();
    accept_thread_ = std::thread([this] { accept_loop(); });
  }
  ~ScriptedHttpServer() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
    }
    changed_.notify_all();
    boost::system::error_code ec;
    ::shutdown(acceptor_.native_handle(), SHUT_RDWR);
    acceptor_.close(ec);
    accept_thread_.join();
    for (std::thread& t : connection_threads_) t.join();
  }

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // Answers every request not covered by script() (benchmarks: replies made on demand).
  void respond_with(std::function<ScriptedReply(const ReceivedRequest&)> responder) {
    std::lock_guard lock(mutex_);
    responder_ = std::move(responder);
    changed_.notify_all();
  }

  void script(ScriptedReply reply) {
    std::lock_guard lock(mutex_);
    replies_.push_back(std::move(reply));
    changed_.notify_all();
  }

  std::vector<ReceivedRequest> received() const {
    std::lock_guard lock(mutex_);
    return received_;
  }
  size_t connections() const { return connections_.load(); }

  // Waits up to 10 s until `n` requests have arrived.
  bool wait_for_requests(size_t n) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return received_.size() >= n; });
  }

 private:
  void accept_loop() {
    for (;;) {
      boost::system::error_code ec;
      auto socket = std::make_shared<boost::asio::ip::tcp::socket>(context_);
      acceptor_.accept(*socket, ec);
      if (ec) return;
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      ++connections_;
      open_fds_.push_back(socket->native_handle());
      connection_threads_.emplace_back([this, socket] { serve(*socket); });
    }
  }

  void serve(boost::asio::ip::tcp::socket& socket) {
    namespace http = boost::beast::http;
    boost::beast::flat_buffer buffer;
    for (;;) {
      http::request<http::string_body> request;
      boost::system::error_code ec;
      http::read(socket, buffer, request, ec);
      if (ec) break;
      ScriptedReply reply;
      {
        std::unique_lock lock(mutex_);
        ReceivedRequest got{std::string(request.method_string()), std::string(request.target()), {}, request.body()};
        for (const auto& field : request) got.headers[std::string(field.name_string())] = std::string(field.value());
        received_.push_back(std::move(got));
        changed_.notify_all();
        changed_.wait(lock, [&] { return stopping_ || !replies_.empty() || responder_; });
        if (stopping_) break;
        if (!replies_.empty()) {
          reply = std::move(replies_.front());
          replies_.pop_front();
        } else {
          reply = responder_(received_.back());
        }
      }
      for (const std::string& bytes : reply.writes) {
        boost::asio::write(socket, boost::asio::buffer(bytes), ec);
        if (ec) break;
      }
      if (reply.close || ec) break;
    }
    std::lock_guard lock(mutex_);
    std::erase(open_fds_, socket.native_handle());  // before the socket closes and its fd can be reused
    boost::system::error_code ignored;
    socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  }

  boost::asio::io_context context_;
  boost::asio::ip::tcp::acceptor acceptor_;
  int port_ = 0;
  std::thread accept_thread_;
  std::vector<std::thread> connection_threads_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<ScriptedReply> replies_;
  std::function<ScriptedReply(const ReceivedRequest&)> responder_;
  std::vector<ReceivedRequest> received_;
  std::vector<int> open_fds_;
  std::atomic<size_t> connections_{0};
  bool stopping_ = false;
};

}  // namespace koordq::testing
