// A TCP stream whose writes pass the leadership fence (write_fence.hpp) at the last moment before
// the socket: each write checks the pass and then sends without blocking in the same call, so what
// the fence admitted reaches the kernel within a system call of the check. Checking only before
// the HTTP request is serialised and TLS-encrypted is not enough: a process stopped (SIGSTOP, a
// paused VM, a starved thread) between that check and the socket sends its request whenever it
// runs again, however late, and the new leader may have taken over meanwhile.
//
// When the socket's send buffer is full the write waits for room through the TCP stream (its
// timeouts hold) after checking the pass once more; the bytes of that request already in flight
// have reached the server before the wait, so the residual window is the rest of one request
// larger than the send buffer. The pass is the current request's (set by the HTTP client around
// each request's write; none, and every write leaves: TLS handshakes, reads).
#pragma once

#include <cstddef>
#include <utility>

#include <boost/asio/async_result.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/system/error_code.hpp>

#include "kube/client/write_fence.hpp"

namespace koordq::kube {

class FencedStream {
 public:
  using next_layer_type = boost::beast::tcp_stream;
  using lowest_layer_type = next_layer_type::socket_type;
  using executor_type = next_layer_type::executor_type;

  explicit FencedStream(boost::asio::io_context& context) : next_(context) {}

  executor_type get_executor() noexcept { return next_.get_executor(); }
  next_layer_type& next_layer() noexcept { return next_; }
  lowest_layer_type& lowest_layer() noexcept { return next_.socket(); }

  // The pass writes must show from now on; nullptr for none.
  void fence_writes(const FencePass* pass) noexcept { pass_ = pass; }

  template <class MutableBuffers, class ReadHandler>
  auto async_read_some(const MutableBuffers& buffers, ReadHandler&& handler) {
    return next_.async_read_some(buffers, std::forward<ReadHandler>(handler));
  }

  template <class ConstBuffers, class WriteHandler>
  auto async_write_some(const ConstBuffers& buffers, WriteHandler&& handler) {
    return boost::asio::async_initiate<WriteHandler, void(boost::system::error_code, std::size_t)>(
        [this](auto&& completion, const ConstBuffers& data) { start_write(data, std::move(completion)); }, handler,
        buffers);
  }

 private:
  template <class ConstBuffers, class Completion>
  void start_write(const ConstBuffers& buffers, Completion&& completion) {
    if (fence_closed()) return refuse(std::move(completion));
    // Sent now or not at all: a non-blocking send in this call, right after the check.
    boost::system::error_code ec;
    if (!next_.socket().non_blocking()) next_.socket().non_blocking(true, ec);  // once per connection
    std::size_t sent = ec ? 0 : next_.socket().write_some(buffers, ec);
    if (ec != boost::asio::error::would_block && ec != boost::asio::error::try_again) {
      complete(std::move(completion), ec, sent);
      return;
    }
    if (fence_closed()) return refuse(std::move(completion));
    next_.async_write_some(buffers, std::move(completion));
  }

  bool fence_closed() const { return pass_ != nullptr && pass_->closed(); }

  template <class Completion>
  void refuse(Completion&& completion) {
    complete(std::move(completion), boost::system::errc::make_error_code(boost::system::errc::operation_not_permitted),
             0);
  }

  template <class Completion>
  void complete(Completion&& completion, boost::system::error_code ec, std::size_t sent) {
    boost::asio::post(next_.get_executor(), boost::beast::bind_front_handler(std::move(completion), ec, sent));
  }

  next_layer_type next_;
  const FencePass* pass_ = nullptr;
};

}  // namespace koordq::kube
