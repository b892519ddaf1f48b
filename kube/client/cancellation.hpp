// Stops a blocking API call from another thread: the request in flight (connect, TLS handshake,
// write, read of a watch stream) and any backoff or rate-limit wait end at once with an error.
// Once cancelled it stays cancelled. Thread-safe.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace boost::asio {
class io_context;
}

namespace koordq::kube {

class Cancellation {
 public:
  void cancel();
  bool cancelled() const;

  // Sleeps for `delay`; false when cancelled before or during the wait.
  bool wait_for(std::chrono::steady_clock::duration delay);

  // Internal to HttpClient: the I/O context running the current call, stopped by cancel().
  // attach() returns false (and attaches nothing) when already cancelled.
  bool attach(boost::asio::io_context* context);
  void detach();

 private:
  mutable std::mutex mutex_;
  std::condition_variable woken_;
  bool cancelled_ = false;
  boost::asio::io_context* context_ = nullptr;
};

}  // namespace koordq::kube
