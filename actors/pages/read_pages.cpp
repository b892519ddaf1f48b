#include "actors/pages/read_pages.hpp"

#include "actors/pages/pages_on_demand.hpp"

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
  return assemble_read_pages(
      s, revision, labels,
      [&](const std::string& label, const std::set<std::string>& keys) {
        return std::make_shared<const QueuePage>(build_queue_page(s, label, keys));
      },
      [&](const std::string& name) { return std::make_shared<const QuotaAccount>(build_quota_account(s, name)); });
}

ReadPages read_pages_on_demand(const Scheduler& s, uint64_t revision, std::shared_ptr<const void> owner) {
  ReadPages pages;
  pages.revision = revision;
  pages.on_demand = std::make_shared<const PagesOnDemand>(s, revision, std::move(owner));
  return pages;
}

std::shared_ptr<const PageMap<NamespacePage>> namespace_pages(const Scheduler& s) {
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
  return namespaces;
}

const QueuePage* find_queue_page(const ReadPages& pages, const std::string& label) {
  if (pages.on_demand) return pages.on_demand->queue(label);
  const auto it = pages.queues->find(label);
  return it == pages.queues->end() ? nullptr : it->second.get();
}

const QueueSummary* find_queue_summary(const ReadPages& pages, const std::string& label) {
  if (pages.on_demand) return pages.on_demand->summary(label);
  return find_queue_page(pages, label);
}

const QuotaAccount* find_quota_account(const ReadPages& pages, const std::string& name) {
  if (pages.on_demand) return pages.on_demand->quota(name);
  const auto it = pages.quotas->find(name);
  return it == pages.quotas->end() ? nullptr : it->second.get();
}

std::vector<std::string_view> queue_names(const ReadPages& pages) {
  std::vector<std::string_view> names;
  if (pages.on_demand) {
    names.reserve(pages.on_demand->state().queues().size());
    for (const auto& [name, q] : pages.on_demand->state().queues()) names.emplace_back(name);
    return names;
  }
  for (const auto& [label, page] : *pages.queues) {
    if (page->queue) names.emplace_back(label);
  }
  return names;
}

std::vector<std::string_view> quota_names(const ReadPages& pages) {
  std::vector<std::string_view> names;
  if (pages.on_demand) {
    names.reserve(pages.on_demand->state().quotas().paths().size());
    for (const auto& [name, path] : pages.on_demand->state().quotas().paths()) names.emplace_back(name);
    return names;
  }
  names.reserve(pages.quotas->size());
  for (const auto& [name, account] : *pages.quotas) names.emplace_back(name);
  return names;
}

const ReadPages& every_page(const ReadPages& pages) {
  return pages.on_demand ? pages.on_demand->all() : pages;
}

}  // namespace koordq::actors::pages
