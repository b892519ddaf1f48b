// The read pages kept up to date batch by batch (design.md §4, read side): before a batch is
// folded, what its records touch is noted (the units of its watch, round and outcome records and
// their queue labels before and after, the Queues of its watch records, the queues whose timers
// fire, the pages whose backoff ends pass); while it is folded, the state notes what the fold
// changed beyond that (actors/core/fold_changes.hpp: the units a capacity change woke, the units a
// Queue maps, the Queues whose state moved). After the fold, the pages of those labels, the
// accounts along their quota paths and the pages of those units' namespaces (and of the units a
// Queue event maps or unmaps) are rebuilt with the builders of actors/pages and the rest are
// shared with the previous revision. A record whose reach is not worked out here (an ElasticQuota
// event, role, config, relist) rebuilds every page: correctness first.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "actors/core/fold_changes.hpp"
#include "actors/core/scheduler.hpp"
#include "actors/pages/read_pages.hpp"
#include "journal/stored_record.hpp"

namespace koordq::actors::runtime {

class PageMaintainer {
 public:
  // Every page of `s`, the state after record `revision`; `s` notes its changes here from now on
  // (until the maintainer goes), and every later call is about `s`.
  PageMaintainer(Scheduler& s, uint64_t revision);
  ~PageMaintainer();
  PageMaintainer(const PageMaintainer&) = delete;
  PageMaintainer& operator=(const PageMaintainer&) = delete;

  // `records` are about to be folded into `s` (those after seq `applied_before` up to `applied`).
  void before_fold(const Scheduler& s, const std::vector<journal::StoredRecord>& records, uint64_t applied_before,
                   uint64_t applied);
  // `s` is folded up to record `revision`: the touched pages are rebuilt.
  void after_fold(const Scheduler& s, uint64_t revision);

  const pages::ReadPages& pages() const { return pages_; }

 private:
  void touch_unit(const Scheduler& s, const std::string& key);
  void note_record(const Scheduler& s, const journal::StoredRecord& record);
  void index_changes_at();

  Scheduler& state_;
  FoldChanges changes_;
  pages::ReadPages pages_;
  pages::LabelIndex labels_;
  // What the batch being folded touches.
  bool all_ = false;
  std::map<std::string, std::optional<std::string>> units_;  // unit key → its label before the fold
  std::set<std::string> queue_events_;                       // names of Queues with a watch event
  std::set<std::string> dirty_labels_;                       // queue labels
  // (changes_at, label) of every queue page with a backoff ending after its time.
  std::set<std::pair<int64_t, std::string>> changes_at_;
};

}  // namespace koordq::actors::runtime
