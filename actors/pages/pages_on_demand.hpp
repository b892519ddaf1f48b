// The read pages of one state, each built the first time a reader asks for it (design.md §4).
// Time travel, the console and `koordq at` answer from a restored state and most answers read a
// few of its pages (one queue, a screen of quotas); building every page of every instant cost
// them more than rendering (BENCHMARKS.md "The web console"). The pages built are the very pages
// build_read_pages builds. Safe for concurrent readers: each page is built once, and a reader of
// a page being built waits for that build only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "actors/core/scheduler.hpp"
#include "actors/pages/read_pages.hpp"

namespace koordq::actors::pages {

class PagesOnDemand {
 public:
  // `state` is read until this is destroyed; `owner` (optional) keeps it alive that long.
  PagesOnDemand(const Scheduler& state, uint64_t revision, std::shared_ptr<const void> owner = nullptr);
  PagesOnDemand(const PagesOnDemand&) = delete;
  PagesOnDemand& operator=(const PagesOnDemand&) = delete;

  const Scheduler& state() const { return state_; }
  // The page of `label`; nullptr when no unit carries it and no Queue has that name.
  const QueuePage* queue(const std::string& label) const;
  // The summary of that page, counted without building its rows; nullptr as for queue(). The
  // first call counts every label's at once (summarize_queues).
  const QueueSummary* summary(const std::string& label) const;
  // The account of `name`; nullptr when it is no known quota.
  const QuotaAccount* quota(const std::string& name) const;
  // Every page, as build_read_pages builds them; the pages read before are reused.
  const ReadPages& all() const;

 private:
  template <class Page>
  struct Slot {
    std::once_flag built;
    std::shared_ptr<const Page> page;
  };
  template <class Page>
  using Slots = std::map<std::string, std::unique_ptr<Slot<Page>>, std::less<>>;

  std::shared_ptr<const QueuePage> queue_page(const std::string& label) const;
  std::shared_ptr<const QuotaAccount> quota_account(const std::string& name) const;
  template <class Page>
  Slot<Page>& slot(Slots<Page>& slots, const std::string& key) const;
  const LabelIndex& labels() const;

  const Scheduler& state_;
  const uint64_t revision_;
  const std::shared_ptr<const void> owner_;
  mutable std::mutex slots_mu_;  // the slot maps, not the pages in them
  mutable Slots<QueuePage> queues_;
  mutable Slots<QuotaAccount> quotas_;
  mutable std::once_flag summaries_built_;
  mutable std::map<std::string, QueueSummary, std::less<>> summaries_;
  mutable std::once_flag labels_built_;
  mutable LabelIndex labels_;
  mutable std::once_flag all_built_;
  mutable ReadPages all_;
};

}  // namespace koordq::actors::pages
