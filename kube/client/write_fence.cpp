#include "kube/client/write_fence.hpp"

#include <utility>

namespace koordq::kube {

WriteFence::WriteFence(std::function<Clock::time_point()> now) : now_(std::move(now)) {}

void WriteFence::open_until(Clock::time_point deadline) {
  std::lock_guard lock(mutex_);
  deadline_ = deadline;
}

void WriteFence::open_indefinitely() {
  open_until(Clock::time_point::max());
}

void WriteFence::close() {
  std::lock_guard lock(mutex_);
  deadline_ = Clock::time_point::min();
  ++reign_;
}

uint64_t WriteFence::reign() const {
  std::lock_guard lock(mutex_);
  return reign_;
}

WriteFence::Clock::time_point WriteFence::deadline() const {
  std::lock_guard lock(mutex_);
  return deadline_;
}

Status WriteFence::admits(uint64_t reign) const {
  std::lock_guard lock(mutex_);
  if (reign != reign_) return make_error("not sent: the leadership this write was decided under has ended");
  if (deadline_ == Clock::time_point::min()) return make_error("not sent: this replica does not lead");
  if (now_() >= deadline_) {
    return make_error(
        "not sent: the lease was last renewed more than the renew deadline ago (leadership fence expired)");
  }
  return ok_status();
}

Status FencePass::admits() const {
  if (fence == nullptr) return ok_status();
  return fence->admits(reign);
}

}  // namespace koordq::kube
