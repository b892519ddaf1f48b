#include "actors/pages/read_pages.hpp"

namespace koordq::actors::pages {

LabelIndex label_index(const Scheduler& s) {
  LabelIndex labels;
  for (const auto& [key, u] : s.units()) labels[u.quota].insert(labels[u.quota].end(), key);
  return labels;
}

ReadPages build_read_pages(const Scheduler& s, uint64_t revision) {
  return build_read_pages(s, revision, label_index(s));
}

ReadPages build_read_pages(const Scheduler& s, uint64_t revision, const LabelIndex& labels) {
  static const std::set<std::string> kNone;
  auto queues = std::make_shared<PageMap<QueuePage>>();
  for (const auto& [label, keys] : labels) {
    queues->emplace(label, std::make_shared<const QueuePage>(build_queue_page(s, label, keys)));
  }
  for (const auto& [name, q] : s.queues()) {
    if (!queues->count(name))
      queues->emplace(name, std::make_shared<const QueuePage>(build_queue_page(s, name, kNone)));
  }
  auto quotas = std::make_shared<PageMap<QuotaAccount>>();
  for (const std::string& name : s.quotas().names()) {
    quotas->emplace_hint(quotas->end(), name, std::make_shared<const QuotaAccount>(build_quota_account(s, name)));
  }
  auto namespaces = std::make_shared<PageMap<NamespacePage>>();
  std::string last;
  for (const auto& [key, u] : s.units()) {
    const std::string& ns = u.object.metadata.namespace_;
    if (!namespaces->empty() && ns == last) continue;
    last = ns;
    if (auto page = build_namespace_page(s, ns)) {
      namespaces->emplace(ns, std::make_shared<const NamespacePage>(std::move(*page)));
    }
  }
  ReadPages pages;
  pages.revision = revision;
  pages.queues = std::move(queues);
  pages.quotas = std::move(quotas);
  pages.namespaces = std::move(namespaces);
  pages.metrics = std::make_shared<const QueueingMetrics>(s.metrics());
  return pages;
}

const QueuePage* find_queue_page(const ReadPages& pages, const std::string& label) {
  const auto it = pages.queues->find(label);
  return it == pages.queues->end() ? nullptr : it->second.get();
}

}  // namespace koordq::actors::pages
