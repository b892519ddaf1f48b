// base::DeferredRelease: objects are freed on its own thread, nothing released is leaked, and a
// reference held elsewhere keeps its object.
#include <atomic>
#include <memory>
#include <thread>

#include <gtest/gtest.h>

#include "base/deferred_release.hpp"

namespace koordq::base {
namespace {

struct Tracked {
  Tracked(std::atomic<int>* freed_count, std::thread::id* freed_thread) : freed(freed_count), freed_on(freed_thread) {}
  Tracked(const Tracked&) = delete;
  Tracked& operator=(const Tracked&) = delete;
  std::atomic<int>* freed;
  std::thread::id* freed_on;
  ~Tracked() {
    if (freed_on != nullptr) *freed_on = std::this_thread::get_id();
    freed->fetch_add(1);
  }
};

TEST(DeferredRelease, frees_what_it_is_given_on_a_thread_of_its_own) {
  std::atomic<int> freed{0};
  std::thread::id freed_on;
  DeferredRelease release;
  release.release(std::make_shared<Tracked>(&freed, &freed_on));
  release.drain();
  EXPECT_EQ(freed.load(), 1);
  EXPECT_NE(freed_on, std::thread::id());
  EXPECT_NE(freed_on, std::this_thread::get_id());
}

TEST(DeferredRelease, a_reference_held_elsewhere_keeps_the_object) {
  std::atomic<int> freed{0};
  DeferredRelease release;
  auto kept = std::make_shared<Tracked>(&freed, nullptr);
  release.release(kept);
  release.drain();
  EXPECT_EQ(freed.load(), 0);
  kept.reset();
  EXPECT_EQ(freed.load(), 1);
}

TEST(DeferredRelease, frees_everything_queued_before_it_is_destroyed) {
  std::atomic<int> freed{0};
  {
    DeferredRelease release;
    for (int i = 0; i < 1000; ++i) release.release(std::make_shared<Tracked>(&freed, nullptr));
    release.release(nullptr);  // nothing to free: ignored
  }
  EXPECT_EQ(freed.load(), 1000);
}

}  // namespace
}  // namespace koordq::base
