// The read side's pages kept batch by batch (actors/runtime/page_maintainer.hpp) against pages built
// from scratch (actors/pages/read_pages.hpp): over generated scenarios' journals cut into batches of
// random sizes, after every batch the pages rebuilt only where the batch reached are the pages of
// the whole state, and a page no batch reached is the very page of the revision before.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "actors/pages/read_pages.hpp"
#include "actors/runtime/page_maintainer.hpp"
#include "actors/wire/record_apply.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/scenario_journal.hpp"

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

// The first page of `kind` whose contents differ, or "".
template <class Page>
std::string first_difference(const std::string& kind, const PageMap<Page>& kept, const PageMap<Page>& built) {
  for (const auto& [name, page] : built) {
    const auto it = kept.find(name);
    if (it == kept.end()) return kind + " \"" + name + "\" is missing";
    if (!(*it->second == *page)) return kind + " \"" + name + "\" differs";
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

RC_GTEST_PROP(ReadPagesProperty, pages_kept_batch_by_batch_are_the_pages_built_from_the_whole_state, ()) {
  const auto scenario = *testgen::scenario();
  const auto records = ScenarioJournal::record(scenario);
  RC_PRE(!records.empty());
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
    if (!difference.empty()) RC_FAIL("after record " + std::to_string(applied) + ": " + difference);
    for (const auto& [label, page] : *maintainer.pages().queues) {
      const auto it = before.queues->find(label);
      if (it != before.queues->end() && it->second == page) ++shared;
    }
  }
  RC_TAG(shared > 0 ? "some pages shared" : "no page shared");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
