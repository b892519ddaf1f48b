// The read side's projections of the decision state at one revision (design.md §4): a page per
// queue label, an account per ElasticQuota, a page per namespace and the journaled metric state,
// each immutable and shared. Every serving surface renders from these; time travel and `koordq at`
// build them from a restored state on demand (pages_on_demand.hpp: only the pages an answer reads),
// the read side keeps every page up to date batch by batch (actors/runtime/page_maintainer.hpp),
// rebuilding only what a batch touched. Readers reach pages through the functions below, which
// work on both kinds.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/pages/namespace_page.hpp"
#include "actors/pages/queue_page.hpp"
#include "actors/pages/quota_account.hpp"

namespace koordq::actors::pages {

template <class Page>
using PageMap = std::map<std::string, std::shared_ptr<const Page>>;

class PagesOnDemand;

struct ReadPages {
  uint64_t revision = 0;
  // Every page; all four null when the pages are built on demand instead.
  std::shared_ptr<const PageMap<QueuePage>> queues;          // by queue label ("": units without one)
  std::shared_ptr<const PageMap<QuotaAccount>> quotas;       // by known quota name
  std::shared_ptr<const PageMap<NamespacePage>> namespaces;  // namespaces with a QueueUnit
  std::shared_ptr<const QueueingMetrics> metrics;
  std::shared_ptr<const PagesOnDemand> on_demand;
};

// Queue label → the keys of the units carrying it.
using LabelIndex = std::map<std::string, std::set<std::string>>;
LabelIndex label_index(const Scheduler& s);

// Every page of `s`, the state after record `revision`.
ReadPages build_read_pages(const Scheduler& s, uint64_t revision);
// The same, from the state's label index.
ReadPages build_read_pages(const Scheduler& s, uint64_t revision, const LabelIndex& labels);
// The pages of `s` built as they are read; `owner` (optional) keeps `s` alive as long as they are.
ReadPages read_pages_on_demand(const Scheduler& s, uint64_t revision, std::shared_ptr<const void> owner = nullptr);

// The page of `label` (nullptr when nothing carries it and no Queue has that name).
const QueuePage* find_queue_page(const ReadPages& pages, const std::string& label);
// What lists show of that page: the page itself, or on demand its summary, counted without rows.
const QueueSummary* find_queue_summary(const ReadPages& pages, const std::string& label);
// The account of `name` (nullptr when it is no known quota).
const QuotaAccount* find_quota_account(const ReadPages& pages, const std::string& name);
// The labels that are Queues' names, and the known quotas, each in bytewise order.
std::vector<std::string_view> queue_names(const ReadPages& pages);
std::vector<std::string_view> quota_names(const ReadPages& pages);
// Every page: `pages` itself, or all pages built on demand (for readers of all of them).
const ReadPages& every_page(const ReadPages& pages);

// The namespace pages of `s`.
std::shared_ptr<const PageMap<NamespacePage>> namespace_pages(const Scheduler& s);

// Every page of `s` from `labels`, each queue page from `queue_page(label, keys)` and each
// account from `quota_account(name)` (both returning a shared_ptr<const …>).
template <class QueuePageOf, class QuotaAccountOf>
ReadPages assemble_read_pages(const Scheduler& s, uint64_t revision, const LabelIndex& labels,
                              const QueuePageOf& queue_page, const QuotaAccountOf& quota_account) {
  static const std::set<std::string> kNone;
  auto queues = std::make_shared<PageMap<QueuePage>>();
  for (const auto& [label, keys] : labels) queues->emplace_hint(queues->end(), label, queue_page(label, keys));
  for (const auto& [name, q] : s.queues()) {
    if (!queues->count(name)) queues->emplace(name, queue_page(name, kNone));
  }
  auto quotas = std::make_shared<PageMap<QuotaAccount>>();
  for (const auto& [name, path] : s.quotas().paths()) quotas->emplace_hint(quotas->end(), name, quota_account(name));
  ReadPages pages;
  pages.revision = revision;
  pages.queues = std::move(queues);
  pages.quotas = std::move(quotas);
  pages.namespaces = namespace_pages(s);
  pages.metrics = std::make_shared<const QueueingMetrics>(s.metrics());
  return pages;
}

}  // namespace koordq::actors::pages
