// kube/events' correlator against client-go's default EventCorrelator (behaviour.md §13.2):
// deduplication, aggregation after 10 messages in 600 s, the per-object token bucket (the cache and the bucket
// themselves: base_shared_test.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "base/time_units.hpp"
#include "kube/events/event_correlator.hpp"

namespace koordq::kube {
namespace KOORDQ_TEST_LOCAL {

using base::kSecond;

actors::ObjectRef unit(const std::string& name) {
  return {"QueueUnit", "scheduling.x-k8s.io/v1alpha1", "team-a", name, "uid-" + name};
}

// One recorded event and what the correlator must make of it.
struct Step {
  int64_t at_seconds;
  std::string object;
  std::string reason;
  std::string message;
  std::string name;  // the name it would get when new
  // Expected:
  bool skip;
  bool update;
  int32_t count;
  std::string written_name;
  std::string written_message;
  int64_t first_seconds;
};

void run_steps(const std::vector<Step>& steps, CorrelatorSettings settings = {}) {
  EventCorrelator correlator("koord-queue-controller", "koordq-0_abc", settings);
  for (size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    EventFacts facts{unit(s.object), "Warning", s.reason, s.message, s.name};
    CorrelatedEvent got = correlator.correlate(facts, s.at_seconds * kSecond);
    SCOPED_TRACE("step " + std::to_string(i) + ": " + s.message);
    EXPECT_EQ(got.skip, s.skip);
    if (s.skip) continue;
    EXPECT_EQ(got.update, s.update);
    EXPECT_EQ(got.count, s.count);
    EXPECT_EQ(got.name, s.written_name);
    EXPECT_EQ(got.message, s.written_message);
    EXPECT_EQ(got.first_timestamp, s.first_seconds * kSecond);
    EXPECT_EQ(got.last_timestamp, s.at_seconds * kSecond);
  }
}

TEST(EventCorrelator, a_repeat_updates_the_first_occurrence) {
  run_steps({
      {0, "u", "FailedScheduling", "no quota", "u.01", false, false, 1, "u.01", "no quota", 0},
      {5, "u", "FailedScheduling", "no quota", "u.02", false, true, 2, "u.01", "no quota", 0},
      {9, "u", "FailedScheduling", "no quota", "u.03", false, true, 3, "u.01", "no quota", 0},
      {9, "u", "FailedScheduling", "other", "u.04", false, false, 1, "u.04", "other", 9},
      {9, "v", "FailedScheduling", "no quota", "v.01", false, false, 1, "v.01", "no quota", 9},
      {9, "u", "Scheduled", "no quota", "u.05", false, false, 1, "u.05", "no quota", 9},
  });
}

TEST(EventCorrelator, the_tenth_different_message_in_600s_is_combined) {
  std::vector<Step> steps;
  for (int i = 1; i <= 9; ++i) {
    const std::string m = "m" + std::to_string(i);
    steps.push_back({i, "u", "FailedScheduling", m, "u." + m, false, false, 1, "u." + m, m, i});
  }
  const std::string combined = "(combined from similar events): ";
  steps.push_back({10, "u", "FailedScheduling", "m10", "u.m10", false, false, 1, "u.m10", combined + "m10", 10});
  steps.push_back({11, "u", "FailedScheduling", "m11", "u.m11", false, true, 2, "u.m10", combined + "m11", 10});
  // A repeat of one of the first nine stays a repeat of its own event.
  steps.push_back({12, "u", "FailedScheduling", "m3", "u.x", false, true, 2, "u.m3", "m3", 3});
  // Another reason is another group.
  steps.push_back({13, "u", "Preempted", "p1", "u.p1", false, false, 1, "u.p1", "p1", 13});
  // 599 s after the last similar event: still inside the window ...
  steps.push_back({611, "u", "FailedScheduling", "m12", "u.m12", false, true, 3, "u.m10", combined + "m12", 10});
  // ... then more than 600 s: a fresh group, the message on its own.
  steps.push_back({1212, "u", "FailedScheduling", "m13", "u.m13", false, false, 1, "u.m13", "m13", 1212});
  run_steps(steps);
}

TEST(EventCorrelator, an_object_gets_25_events_then_one_per_300s) {
  std::vector<Step> steps;
  for (int i = 1; i <= 25; ++i) {
    steps.push_back({0, "u", "FailedScheduling", "same", "u.1", false, i > 1, i, "u.1", "same", 0});
  }
  // No token: dropped, but counted, as client-go counts before it filters.
  steps.push_back({299, "u", "FailedScheduling", "same", "u.2", true, false, 0, "", "", 0});
  // Another object has its own bucket.
  steps.push_back({299, "v", "FailedScheduling", "same", "v.1", false, false, 1, "v.1", "same", 299});
  steps.push_back({300, "u", "FailedScheduling", "same", "u.3", false, true, 27, "u.1", "same", 0});
  steps.push_back({300, "u", "FailedScheduling", "same", "u.4", true, false, 0, "", "", 0});
  steps.push_back({900, "u", "FailedScheduling", "same", "u.5", false, true, 29, "u.1", "same", 0});
  steps.push_back({900, "u", "FailedScheduling", "same", "u.6", false, true, 30, "u.1", "same", 0});
  steps.push_back({900, "u", "FailedScheduling", "same", "u.7", true, false, 0, "", "", 0});
  run_steps(steps);
}

TEST(EventCorrelator, forgets_the_least_recently_used_event_beyond_its_cache_size) {
  CorrelatorSettings small;
  small.cache_size = 2;
  run_steps(
      {
          {0, "a", "R", "m", "a.1", false, false, 1, "a.1", "m", 0},
          {0, "b", "R", "m", "b.1", false, false, 1, "b.1", "m", 0},
          {1, "a", "R", "m", "a.2", false, true, 2, "a.1", "m", 0},   // a is now the most recent
          {1, "c", "R", "m", "c.1", false, false, 1, "c.1", "m", 1},  // evicts b
          {2, "b", "R", "m", "b.2", false, false, 1, "b.2", "m", 2},
          {2, "c", "R", "m", "c.2", false, true, 2, "c.1", "m", 1},
      },
      small);
}

TEST(EventCorrelator, the_servers_answer_sets_the_count_of_the_next_repeat) {
  EventCorrelator correlator("koord-queue-controller", "id");
  EventFacts facts{unit("u"), "Normal", "Scheduled", "dequeue success", "u.1"};
  CorrelatedEvent first = correlator.correlate(facts, 0);
  EXPECT_FALSE(first.update);
  correlator.update_state(facts, 7, 3 * kSecond);
  facts.name = "u.2";
  CorrelatedEvent next = correlator.correlate(facts, 10 * kSecond);
  EXPECT_TRUE(next.update);
  EXPECT_EQ(next.count, 8);
  EXPECT_EQ(next.name, "u.1");
  EXPECT_EQ(next.first_timestamp, 3 * kSecond);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::kube
