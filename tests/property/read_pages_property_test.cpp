// The read side's pages kept batch by batch (actors/runtime/page_maintainer.hpp) against pages built
// from scratch (actors/pages/read_pages.hpp): over generated scenarios' journals cut into batches of
// random sizes, after every batch the pages rebuilt only where the batch reached are the pages of
// the whole state, and a page no batch reached is the very page of the revision before. Pages built
// on demand (actors/pages/pages_on_demand.hpp), read in any order, are the pages built at once.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "actors/pages/pages_on_demand.hpp"
#include "actors/pages/read_pages.hpp"
#include "actors/runtime/page_maintainer.hpp"
#include "actors/wire/record_apply.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/scenario_journal.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::pages::PageMap;
using actors::pages::ReadPages;

// Copies a record (records are move-only).
journal::StoredRecord copy_of(const journal::StoredRecord& r) {
  auto copy = journal::StoredRecord::parse(r.stored_value());
  if (!copy.ok()) throw std::runtime_error(copy.message());
  return std::move(copy).value();
}

// What differs between two pages of one queue label (the first difference).
std::string queue_page_difference(const actors::pages::QueuePage& kept, const actors::pages::QueuePage& built) {
  if (kept.queue != built.queue) {
    if (!kept.queue || !built.queue) return "whether the Queue exists";
    const auto& a = *kept.queue;
    const auto& b = *built.queue;
    std::string fields;
    if (a.cursor != b.cursor) fields += " cursor";
    if (a.last_attempt != b.last_attempt) fields += " last_attempt";
    if (a.blocked != b.blocked) fields += " blocked";
    if (a.preempting != b.preempting) fields += " preempting";
    return "the Queue's" + (fields.empty() ? std::string(" settings") : fields);
  }
  if (kept.units.size() != built.units.size()) return "the number of units";
  for (size_t i = 0; i < kept.units.size(); ++i) {
    const auto& a = *kept.units[i];
    const auto& b = *built.units[i];
    if (a == b) continue;
    std::string fields;
    if (a.active != b.active) fields += " active";
    if (a.backoff_until != b.backoff_until) fields += " backoff_until";
    if (a.waiting != b.waiting) fields += " waiting";
    if (a.assumed != b.assumed) fields += " assumed";
    if (a.holds != b.holds) fields += " holds";
    if (a.phase != b.phase) fields += " phase";
    if (a.attempts != b.attempts) fields += " attempts";
    if (a.failures != b.failures) fields += " failures";
    if (a.last_allocate_time != b.last_allocate_time) fields += " last_allocate_time";
    if (a.reclaim_requested != b.reclaim_requested) fields += " reclaim_requested";
    if (a.pods_running != b.pods_running || a.pods_pending != b.pods_pending) fields += " pods";
    return "unit " + b.key + ":" + (fields.empty() ? " another field" : fields);
  }
  if (kept.waiting != built.waiting) return "the waiting order";
  if (kept.not_waiting != built.not_waiting) return "the units not waiting";
  if (kept.changes_at != built.changes_at) return "changes_at";
  return "the counts";
}

std::string page_difference(const actors::pages::QueuePage& kept, const actors::pages::QueuePage& built) {
  return queue_page_difference(kept, built);
}
template <class Page>
std::string page_difference(const Page&, const Page&) {
  return "";
}

// The first page of `kind` whose contents differ, or "".
template <class Page>
std::string first_difference(const std::string& kind, const PageMap<Page>& kept, const PageMap<Page>& built) {
  for (const auto& [name, page] : built) {
    const auto it = kept.find(name);
    if (it == kept.end()) return kind + " \"" + name + "\" is missing";
    if (!(*it->second == *page)) return kind + " \"" + name + "\" differs: " + page_difference(*it->second, *page);
  }
  for (const auto& [name, page] : kept) {
    if (!built.count(name)) return kind + " \"" + name + "\" should be gone";
  }
  return "";
}

std::string pages_difference(const ReadPages& kept, const ReadPages& built) {
  if (kept.revision != built.revision) return "revision";
  for (const std::string& d : {first_difference("queue page", *kept.queues, *built.queues),
                               first_difference("quota account", *kept.quotas, *built.quotas),
                               first_difference("namespace page", *kept.namespaces, *built.namespaces)}) {
    if (!d.empty()) return d;
  }
  if (!(*kept.metrics == *built.metrics)) return "metrics";
  return "";
}

// One generated scenario's journal, cut into batches of random sizes; the number of queue pages
// shared with the revision before.
size_t check_scenario() {
  const auto scenario = *testgen::scenario();
  const auto records = ScenarioJournal::record(scenario);
  if (records.empty()) return 0;
  actors::Scheduler state(scenario.config);
  actors::runtime::PageMaintainer maintainer(state, 0);
  uint64_t applied = 0;
  size_t next = 0;
  size_t shared = 0;
  while (next < records.size()) {
    const size_t size = *rc::gen::inRange<size_t>(1, 12);
    std::vector<journal::StoredRecord> batch;
    for (; batch.size() < size && next < records.size(); ++next) {
      batch.push_back(copy_of(records[next]));
    }
    const ReadPages before = maintainer.pages();
    maintainer.before_fold(state, batch, applied, batch.back().seq());
    for (const auto& record : batch) {
      RC_ASSERT(actors::apply_record(state, record).ok());
      applied = record.seq();
    }
    maintainer.after_fold(state, applied);
    const std::string difference =
        pages_difference(maintainer.pages(), actors::pages::build_read_pages(state, applied));
    if (!difference.empty()) {
      std::string kinds;
      for (const auto& record : batch) kinds += " " + std::string(journal::kind_name(record.kind()));
      RC_FAIL("after record " + std::to_string(applied) + " (batch:" + kinds + "): " + difference);
    }
    for (const auto& [label, page] : *maintainer.pages().queues) {
      const auto it = before.queues->find(label);
      if (it != before.queues->end() && it->second == page) ++shared;
    }
  }
  return shared;
}

// Ten scenarios a case: a page missed by a rare interleaving (a unit created and deleted in one
// batch) showed only after several hundred scenarios.
RC_GTEST_PROP(ReadPagesProperty, pages_kept_batch_by_batch_are_the_pages_built_from_the_whole_state, ()) {
  size_t shared = 0;
  for (int i = 0; i < 10; ++i) shared += check_scenario();
  RC_TAG(shared > 0 ? "some pages shared" : "no page shared");
}

// The pages of `state` on demand, a random sample of labels and quotas read first (some of them
// unknown), and the summaries of those labels, against the pages built at once; then all of them,
// which reuse the pages read.
void check_on_demand(const actors::Scheduler& state, uint64_t revision) {
  const ReadPages built = actors::pages::build_read_pages(state, revision);
  const ReadPages lazy = actors::pages::read_pages_on_demand(state, revision);
  std::vector<std::string> labels{"no-such-label"};
  for (const auto& [label, page] : *built.queues) labels.push_back(label);
  std::vector<std::string> quotas{"no-such-quota"};
  for (const auto& [name, account] : *built.quotas) quotas.push_back(name);
  std::vector<const actors::pages::QueuePage*> read;
  for (const std::string& label : *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(labels))) {
    const auto* page = actors::pages::find_queue_page(lazy, label);
    const auto it = built.queues->find(label);
    RC_ASSERT((page == nullptr) == (it == built.queues->end()));
    if (page != nullptr) {
      RC_ASSERT(*page == *it->second);
      read.push_back(page);
    }
    // A summary counted without rows is the page's own.
    const auto* summary = actors::pages::find_queue_summary(lazy, label);
    RC_ASSERT((summary == nullptr) == (it == built.queues->end()));
    if (summary != nullptr) RC_ASSERT(*summary == static_cast<const actors::pages::QueueSummary&>(*it->second));
  }
  for (const std::string& name : *rc::gen::container<std::vector<std::string>>(rc::gen::elementOf(quotas))) {
    const auto* account = actors::pages::find_quota_account(lazy, name);
    const auto it = built.quotas->find(name);
    RC_ASSERT((account == nullptr) == (it == built.quotas->end()));
    if (account != nullptr) RC_ASSERT(*account == *it->second);
  }
  std::vector<std::string_view> queue_names;
  for (const auto& [label, page] : *built.queues) {
    if (page->queue) queue_names.emplace_back(label);
  }
  RC_ASSERT(actors::pages::queue_names(lazy) == queue_names);
  RC_ASSERT(actors::pages::quota_names(lazy) == actors::pages::quota_names(built));
  const ReadPages& all = actors::pages::every_page(lazy);
  for (const auto& [label, page] : *all.queues) RC_ASSERT(page != nullptr);
  for (const auto& [name, account] : *all.quotas) RC_ASSERT(account != nullptr);
  const std::string difference = pages_difference(all, built);
  if (!difference.empty()) RC_FAIL("after record " + std::to_string(revision) + ": " + difference);
  for (const auto* page : read) RC_ASSERT(all.queues->at(page->label).get() == page);
}

RC_GTEST_PROP(ReadPagesProperty, pages_built_on_demand_are_the_pages_built_at_once, ()) {
  const auto scenario = *testgen::scenario();
  const auto records = ScenarioJournal::record(scenario);
  actors::Scheduler state(scenario.config);
  for (const auto& record : records) {
    RC_ASSERT(actors::apply_record(state, record).ok());
    if (*rc::gen::inRange(0, 8) == 0) check_on_demand(state, record.seq());
  }
  check_on_demand(state, records.empty() ? 0 : records.back().seq());
}

TEST(PagesOnDemand, a_page_read_by_many_threads_at_once_is_built_once) {
  SchedulerDriver d;
  d.input(quota("team-a", "", {{"cpu", "100"}}));
  d.input(queue("team-a"));
  for (int i = 0; i < 200; ++i) d.input(unit("job" + std::to_string(i), "team-a", "1"));
  for (int attempt = 0; attempt < 20; ++attempt) {
    const ReadPages lazy = actors::pages::read_pages_on_demand(d.s, d.seq);
    std::vector<const actors::pages::QueuePage*> seen(8);
    std::vector<std::thread> readers;
    for (size_t t = 0; t < seen.size(); ++t) {
      readers.emplace_back([&, t] { seen[t] = actors::pages::find_queue_page(lazy, "team-a"); });
    }
    for (auto& reader : readers) reader.join();
    ASSERT_NE(seen[0], nullptr);
    EXPECT_EQ(seen[0]->units.size(), 200u);
    for (const auto* page : seen) EXPECT_EQ(page, seen[0]);
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
