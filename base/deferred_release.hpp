// Lets go of objects on a thread of its own: the last reference to a large structure (a decision
// state of millions of map nodes takes tens of milliseconds to free) is dropped there, not on the
// thread answering a request. Whatever is still queued is freed before the destructor returns.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace koordq::base {

class DeferredRelease {
 public:
  DeferredRelease();
  ~DeferredRelease();
  DeferredRelease(const DeferredRelease&) = delete;
  DeferredRelease& operator=(const DeferredRelease&) = delete;

  // Drops this reference on the release thread (the object goes when its last reference does).
  void release(std::shared_ptr<const void> object);
  // Waits until everything released so far is dropped (tests).
  void drain();

 private:
  void run();

  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<std::shared_ptr<const void>> queued_;  // under mu_
  bool busy_ = false;                               // under mu_: the thread drops one now
  bool stopping_ = false;                           // under mu_
  std::thread thread_;                              // last: started once the members above exist
};

}  // namespace koordq::base
