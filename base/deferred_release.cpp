#include "base/deferred_release.hpp"

#include <utility>

namespace koordq::base {

DeferredRelease::DeferredRelease() : thread_([this] { run(); }) {}

DeferredRelease::~DeferredRelease() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void DeferredRelease::release(std::shared_ptr<const void> object) {
  if (!object) return;
  {
    std::lock_guard lock(mu_);
    queued_.push_back(std::move(object));
  }
  changed_.notify_all();
}

void DeferredRelease::drain() {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] { return queued_.empty() && !busy_; });
}

void DeferredRelease::run() {
  std::unique_lock lock(mu_);
  for (;;) {
    changed_.wait(lock, [&] { return stopping_ || !queued_.empty(); });
    if (queued_.empty()) return;  // stopping, and everything is dropped
    std::shared_ptr<const void> object = std::move(queued_.front());
    queued_.pop_front();
    busy_ = true;
    lock.unlock();
    object.reset();
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

}  // namespace koordq::base
