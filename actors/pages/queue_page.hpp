// The page of one queue label (design.md §4, read side): the Queue of that name when there is one,
// and every QueueUnit carrying the label, with the waiting ones in queue order. Immutable once
// built; the visibility API, /metrics and the debug API's queue page read it.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/pages/unit_row.hpp"

namespace koordq::actors::pages {

// What the answers show of a Queue object and its queue state.
struct QueueFacts {
  std::string name;
  std::string namespace_;
  std::optional<int64_t> creation_timestamp;
  std::string policy;  // spec.queuePolicy as written ("" shows as Priority)
  bool running = false;
  int64_t max_depth = 0;
  bool wait_for_pods_running = false;
  bool preemption_enabled = false;
  bool preempting = false;
  std::optional<std::string> cursor;
  std::optional<int64_t> last_attempt;
  std::map<std::string, std::string> blocked;  // quota → blocker unit key

  bool operator==(const QueueFacts&) const = default;
};

// What lists show of a queue label (the Queue list, the quota list's counts): the Queue's facts
// and its units counted, without a row per unit.
struct QueueSummary {
  std::string label;
  std::optional<QueueFacts> queue;              // nullopt: no Queue has this name
  std::map<std::string, int64_t> phase_counts;  // by phase name, over the label's units
  int64_t active = 0, backoff = 0, assumed = 0;

  bool operator==(const QueueSummary&) const = default;
};

struct QueuePage : QueueSummary {
  // Every unit carrying the label, by key; a row is shared with the page this one was rebuilt
  // from while its unit is unchanged.
  std::vector<std::shared_ptr<const UnitRow>> units;
  // Indexes into `units`: the waiting ones in queue order (position = index), and the others
  // (not waiting) by key.
  std::vector<size_t> waiting;
  std::vector<size_t> not_waiting;
  // The earliest backoff end after the page's time: the active/backoff split changes then.
  std::optional<int64_t> changes_at;

  const UnitRow& row(size_t index) const { return *units[index]; }
  // Equal contents (rows compared by value).
  bool operator==(const QueuePage& other) const;
};

// The page of `label`, whose units are `keys` (the units whose quota label it is). With `previous`
// (the label's page of an earlier revision) and `changed` (the units records changed since), the
// rows of the other units are taken from `previous` when what a round can change on a unit
// without naming it (its backoff, whether it waits, is active or assumed) is as the row shows.
QueuePage build_queue_page(const Scheduler& s, const std::string& label, const std::set<std::string>& keys,
                           const QueuePage* previous = nullptr, const std::set<std::string>* changed = nullptr);
// The summary of the same page, counted from the units themselves: equal to the page's own.
QueueSummary summarize_queue(const Scheduler& s, const std::string& label, const std::set<std::string>& keys);
// The summary of every label a unit carries and of every Queue, in one walk over the units (no
// label index, no search per unit): each equal to summarize_queue of that label.
std::map<std::string, QueueSummary, std::less<>> summarize_queues(const Scheduler& s);

}  // namespace koordq::actors::pages
