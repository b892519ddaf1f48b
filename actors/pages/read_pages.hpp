// The read side's projections of the decision state at one revision (design.md §4): a page per
// queue label, an account per ElasticQuota, a page per namespace and the journaled metric state,
// each immutable and shared. Every serving surface renders from these; time travel and `koordq at`
// build them from a restored state with build_read_pages, the read side keeps them up to date
// batch by batch (actors/runtime/page_maintainer.hpp), rebuilding only what a batch touched.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "actors/core/scheduler.hpp"
#include "actors/pages/namespace_page.hpp"
#include "actors/pages/queue_page.hpp"
#include "actors/pages/quota_account.hpp"

namespace koordq::actors::pages {

template <class Page>
using PageMap = std::map<std::string, std::shared_ptr<const Page>>;

struct ReadPages {
  uint64_t revision = 0;
  std::shared_ptr<const PageMap<QueuePage>> queues;          // by queue label ("": units without one)
  std::shared_ptr<const PageMap<QuotaAccount>> quotas;       // by known quota name
  std::shared_ptr<const PageMap<NamespacePage>> namespaces;  // namespaces with a QueueUnit
  std::shared_ptr<const QueueingMetrics> metrics;
};

// Queue label → the keys of the units carrying it.
using LabelIndex = std::map<std::string, std::set<std::string>>;
LabelIndex label_index(const Scheduler& s);

// Every page of `s`, the state after record `revision`.
ReadPages build_read_pages(const Scheduler& s, uint64_t revision);
// The same, from the state's label index.
ReadPages build_read_pages(const Scheduler& s, uint64_t revision, const LabelIndex& labels);

// The page of `label` (an empty page when nothing carries it and no Queue has that name).
const QueuePage* find_queue_page(const ReadPages& pages, const std::string& label);

}  // namespace koordq::actors::pages
