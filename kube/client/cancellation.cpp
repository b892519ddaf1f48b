#include "kube/client/cancellation.hpp"

#include <boost/asio/io_context.hpp>

namespace koordq::kube {

void Cancellation::cancel() {
  std::lock_guard lock(mutex_);
  cancelled_ = true;
  if (context_ != nullptr) context_->stop();
  woken_.notify_all();
}

bool Cancellation::cancelled() const {
  std::lock_guard lock(mutex_);
  return cancelled_;
}

bool Cancellation::wait_for(std::chrono::steady_clock::duration delay) {
  std::unique_lock lock(mutex_);
  return !woken_.wait_for(lock, delay, [this] { return cancelled_; });
}

bool Cancellation::attach(boost::asio::io_context* context) {
  std::lock_guard lock(mutex_);
  if (cancelled_) return false;
  context_ = context;
  return true;
}

void Cancellation::detach() {
  std::lock_guard lock(mutex_);
  context_ = nullptr;
}

}  // namespace koordq::kube
