#include "actors/pages/pages_on_demand.hpp"

namespace koordq::actors::pages {

PagesOnDemand::PagesOnDemand(const Scheduler& state, uint64_t revision, std::shared_ptr<const void> owner)
    : state_(state), revision_(revision), owner_(std::move(owner)) {}

template <class Page>
PagesOnDemand::Slot<Page>& PagesOnDemand::slot(Slots<Page>& slots, const std::string& key) const {
  std::lock_guard lock(slots_mu_);
  auto& entry = slots[key];
  if (!entry) entry = std::make_unique<Slot<Page>>();
  return *entry;
}

const LabelIndex& PagesOnDemand::labels() const {
  std::call_once(labels_built_, [&] { labels_ = label_index(state_); });
  return labels_;
}

std::shared_ptr<const QueuePage> PagesOnDemand::queue_page(const std::string& label) const {
  static const std::set<std::string> kNone;
  const auto keys = labels().find(label);
  if (keys == labels().end() && !state_.queues().count(label)) return nullptr;
  Slot<QueuePage>& s = slot(queues_, label);
  std::call_once(s.built, [&] {
    s.page = std::make_shared<const QueuePage>(
        build_queue_page(state_, label, keys == labels().end() ? kNone : keys->second));
  });
  return s.page;
}

std::shared_ptr<const QuotaAccount> PagesOnDemand::quota_account(const std::string& name) const {
  if (!state_.quotas().known(name)) return nullptr;
  Slot<QuotaAccount>& s = slot(quotas_, name);
  std::call_once(s.built, [&] { s.page = std::make_shared<const QuotaAccount>(build_quota_account(state_, name)); });
  return s.page;
}

const QueueSummary* PagesOnDemand::summary(const std::string& label) const {
  std::call_once(summaries_built_, [&] { summaries_ = summarize_queues(state_); });
  const auto it = summaries_.find(label);
  return it == summaries_.end() ? nullptr : &it->second;
}

const QueuePage* PagesOnDemand::queue(const std::string& label) const {
  return queue_page(label).get();
}

const QuotaAccount* PagesOnDemand::quota(const std::string& name) const {
  return quota_account(name).get();
}

const ReadPages& PagesOnDemand::all() const {
  std::call_once(all_built_, [&] {
    all_ = assemble_read_pages(
        state_, revision_, labels(), [&](const std::string& label, const auto&) { return queue_page(label); },
        [&](const std::string& name) { return quota_account(name); });
  });
  return all_;
}

}  // namespace koordq::actors::pages
