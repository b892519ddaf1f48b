// queueItemDetails: its content and caps, its refresh interval and the switch that stops it
// (behaviour.md §14.1, §14.2, §13.1 InvalidRefreshInterval).
#include <algorithm>
#include <optional>
#include <ostream>

#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::schema {
inline void PrintTo(const QueueItem& i, std::ostream* os) {
  *os << i.namespace_ << "/" << i.name << " position " << i.position;
  if (i.priority) *os << " priority " << *i.priority;
}
}  // namespace koordq::schema

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;

constexpr char kRefreshInterval[] = "koord-queue/queue-items-refresh-interval";

schema::QueueItem item(const std::string& name, int64_t position, std::optional<int32_t> priority = std::nullopt) {
  return {name, "default", priority, position};
}

std::vector<int64_t> publication_times(SchedulerDriver& d, int64_t until, int64_t step) {
  std::vector<int64_t> times;
  while (d.time + step <= until) {
    if (!of_kind(d.tick(d.time + step), DecisionKind::kPublishQueueItems).empty()) times.push_back(d.time);
  }
  return times;
}

TEST(SchedulerQueueItems, published_lists_interleave_positions_and_omit_zero_priority) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(unit("big", "q", "2", 20, 1));
  d.input(unit("mid", "q", "2", 15, 2));
  d.input(unit("low", "q", "2", 0, 3));
  d.input(queue("q"));  // big fails at once and goes to backoff
  d.run_until(d.time + 15 * kSec + 100 * kMs, 100 * kMs);
  const auto& q = d.s.queues().at("q");
  ASSERT_TRUE(q.last_published.has_value());
  const auto details = actors::queue_item_details(d.s, q);
  size_t total = details.active.size() + details.backoff.size();
  EXPECT_EQ(total, 3u);
  for (const auto& item : details.active) {
    if (item.name == "low") {
      EXPECT_FALSE(item.priority.has_value());
    }
  }
  std::vector<int64_t> positions;
  for (const auto& i : details.active) positions.push_back(i.position);
  for (const auto& i : details.backoff) positions.push_back(i.position);
  std::sort(positions.begin(), positions.end());
  EXPECT_EQ(positions, (std::vector<int64_t>{1, 2, 3}));
}

struct TruncationCase {
  int64_t max;
  std::vector<schema::QueueItem> active;
  std::vector<schema::QueueItem> backoff;
};

// Waiting in order: x (active), a, b, c (failed: backoff), d, e (not tried yet: active).
TEST(SchedulerQueueItems, failed_units_are_listed_under_backoff_and_each_list_is_cut_at_the_max) {
  const std::vector<TruncationCase> cases = {
      {500, {item("x", 1, 5), item("d", 5), item("e", 6)}, {item("a", 2), item("b", 3), item("c", 4)}},
      {2, {item("x", 1, 5), item("d", 5)}, {item("a", 2), item("b", 3)}},
  };
  for (const auto& c : cases) {
    actors::DecisionConfig config;
    config.queue_items_max = c.max;
    SchedulerDriver d(config);
    d.input(quota("q", "", {{"cpu", "1"}}));
    for (const char* name : {"a", "b", "c", "d", "e"}) d.input(unit(name, "q", "2", 0, name[0]));
    const int64_t start = d.time;
    d.input(queue("q"));  // a fails now, b and c at the next two attempts 10 ms apart
    d.tick(start + 10 * kMs);
    d.tick(start + 20 * kMs);
    d.at(start + 25 * kMs);
    d.input(unit("x", "q", "2", 5, 'x'));  // within the suspend time: not tried
    const auto details = actors::queue_item_details(d.s, d.s.queues().at("q"));
    EXPECT_EQ(details.active, c.active) << "max " << c.max;
    EXPECT_EQ(details.backoff, c.backoff) << "max " << c.max;
  }
}

TEST(SchedulerQueueItems, a_unit_whose_backoff_expired_is_listed_as_active_again) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  d.input(queue("q"));
  const int64_t failed_at = d.time;
  d.input(unit("big", "q", "2"));
  d.s.advance_to(failed_at + kSec - 1);
  auto details = actors::queue_item_details(d.s, d.s.queues().at("q"));
  EXPECT_TRUE(details.active.empty());
  EXPECT_EQ(details.backoff, std::vector<schema::QueueItem>{item("big", 1)});
  d.s.advance_to(failed_at + kSec);  // the first backoff is 1 s
  details = actors::queue_item_details(d.s, d.s.queues().at("q"));
  EXPECT_EQ(details.active, std::vector<schema::QueueItem>{item("big", 1)});
  EXPECT_TRUE(details.backoff.empty());
}

struct IntervalCase {
  std::optional<std::string> annotation;
  int64_t interval;
};

// The Queue publishes when it appears; a unit then changes the lists, so the next publication
// comes exactly one interval later.
TEST(SchedulerQueueItems, the_refresh_interval_comes_from_the_annotation_at_least_one_second) {
  const std::vector<IntervalCase> cases = {
      {std::nullopt, 15 * kSec}, {"2s", 2 * kSec},  {"1.5s", 1500 * kMs}, {"1s", kSec}, {"999ms", kSec}, {"1ms", kSec},
      {"soon", 15 * kSec},       {"0s", 15 * kSec}, {"-5s", 15 * kSec},
  };
  for (const auto& c : cases) {
    SchedulerDriver d;
    d.input(quota("q", "", {{"cpu", "1"}}));
    schema::StringMap annotations;
    if (c.annotation) annotations[kRefreshInterval] = *c.annotation;
    const int64_t start = d.time;
    ASSERT_EQ(of_kind(d.input(queue("q", "Priority", annotations)), DecisionKind::kPublishQueueItems).size(), 1u);
    d.at(start + 100 * kMs);
    d.input(unit("big", "q", "2"));
    const auto times = publication_times(d, start + 20 * kSec, 100 * kMs);
    ASSERT_FALSE(times.empty()) << c.annotation.value_or("(none)");
    EXPECT_EQ(times[0] - start, c.interval) << c.annotation.value_or("(none)");
  }
}

// §14.1: a changed annotation applies from the next tick, counted from the last publication.
TEST(SchedulerQueueItems, a_changed_refresh_interval_counts_from_the_last_publication_at_once) {
  struct Case {
    int64_t change_after;  // since the first publication
    int64_t next;          // the next publication, since the first
  };
  // From 15 s to 2 s: 2 s after the first publication, or at once when that has passed already;
  // from 2 s to 15 s: 15 s after it.
  for (const auto& c : {Case{kSec, 2 * kSec}, Case{5 * kSec, 5 * kSec + 100 * kMs}}) {
    SchedulerDriver d;
    d.input(quota("q", "", {{"cpu", "1"}}));
    const int64_t start = d.time;
    ASSERT_EQ(of_kind(d.input(queue("q")), DecisionKind::kPublishQueueItems).size(), 1u);
    d.at(start + 100 * kMs);
    d.input(unit("big", "q", "2"));  // the lists change with every retry
    d.run_until(start + c.change_after, 100 * kMs);
    d.at(d.time + 100 * kMs);
    const auto at_change = d.input(queue("q", "Priority", {{kRefreshInterval, "2s"}}));
    std::vector<int64_t> times;
    if (!of_kind(at_change, DecisionKind::kPublishQueueItems).empty()) times.push_back(d.time);
    for (int64_t t : publication_times(d, start + 20 * kSec, 100 * kMs)) times.push_back(t);
    ASSERT_FALSE(times.empty());
    EXPECT_EQ(times[0] - start, c.next) << "changed after " << c.change_after;
  }
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  const int64_t start = d.time;
  d.input(queue("q", "Priority", {{kRefreshInterval, "2s"}}));
  d.at(start + 100 * kMs);
  d.input(unit("big", "q", "2"));
  d.at(start + kSec);
  d.input(queue("q"));  // back to the 15 s default
  const auto times = publication_times(d, start + 20 * kSec, 100 * kMs);
  ASSERT_FALSE(times.empty());
  EXPECT_EQ(times[0] - start, 15 * kSec);
}

TEST(SchedulerQueueItems, an_invalid_refresh_interval_is_reported_once_per_distinct_value) {
  for (const std::string value : {"soon", "0s", "-5s", "15"}) {
    SchedulerDriver d;
    auto round = d.input(queue("q", "Priority", {{kRefreshInterval, value}}));
    const auto reports = of_kind(round, DecisionKind::kInvalidRefreshInterval);
    ASSERT_EQ(reports.size(), 1u) << value;
    ASSERT_EQ(reports[0]->events.size(), 1u);
    const auto& e = reports[0]->events[0];
    EXPECT_TRUE(e.warning);
    EXPECT_EQ(e.reason, "InvalidRefreshInterval");
    EXPECT_EQ(e.message, "invalid koord-queue/queue-items-refresh-interval \"" + value + "\", using 15s");
    EXPECT_EQ(e.involved_object.kind, "Queue");
    EXPECT_EQ(e.involved_object.name, "q");
  }
  SchedulerDriver d;
  auto reports = [&](const std::string& value, const std::string& other = "") {
    schema::StringMap annotations = {{kRefreshInterval, value}};
    if (!other.empty()) annotations["team"] = other;
    return of_kind(d.input(queue("q", "Priority", annotations)), DecisionKind::kInvalidRefreshInterval).size();
  };
  EXPECT_EQ(reports("soon"), 1u);
  EXPECT_EQ(reports("soon", "a"), 0u);  // another change of the Queue, same value
  EXPECT_EQ(reports("later"), 1u);
  EXPECT_EQ(reports("soon"), 0u);
  EXPECT_TRUE(of_kind(d.run_until(d.time + kSec, 100 * kMs), DecisionKind::kInvalidRefreshInterval).empty());
}

TEST(SchedulerQueueItems, disable_show_queue_items_stops_publication_until_it_is_removed) {
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  // Any value disables, "false" included.
  auto first = d.input(queue("q", "Priority", {{"koord-queue/disable-show-queue-items", "false"}}));
  EXPECT_TRUE(of_kind(first, DecisionKind::kPublishQueueItems).empty());
  d.at(d.time + 100 * kMs);
  d.input(unit("big", "q", "2"));  // changes the lists, again with every retry
  EXPECT_TRUE(publication_times(d, d.time + 40 * kSec, 100 * kMs).empty());
  d.at(d.time + 100 * kMs);
  auto resumed = d.input(queue("q"));
  const auto published = of_kind(resumed, DecisionKind::kPublishQueueItems);
  ASSERT_EQ(published.size(), 1u);
  ASSERT_TRUE(published[0]->queue_write.has_value());
  const auto& details = std::get<schema::QueueItemDetails>(*published[0]->queue_write);
  EXPECT_EQ(details.active.size() + details.backoff.size(), 1u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
