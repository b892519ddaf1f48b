#include "controller/relist_changes.hpp"

namespace koordq::controller {

std::vector<schema::WatchedObject> journaled_objects(const actors::Scheduler& s) {
  std::vector<schema::WatchedObject> out;
  for (auto& quota : s.quotas().objects()) out.emplace_back(std::move(quota));
  for (const auto& [name, q] : s.queues()) out.emplace_back(q.object);
  for (const auto& [key, u] : s.units()) out.emplace_back(u.object);
  return out;
}

std::vector<kube::RelistEvent> relist_changes(const actors::Scheduler& s, schema::ObjectKind kind,
                                              std::vector<schema::DecodedObject>&& listed,
                                              schema::RawObjectMode raw_mode) {
  std::vector<kube::JournaledObject> journaled;
  std::vector<schema::ElasticQuota> quotas;  // the tree hands out copies (a handful of objects)
  switch (kind) {
    case schema::ObjectKind::kElasticQuota:
      quotas = s.quotas().objects();
      for (const auto& quota : quotas) journaled.emplace_back(&quota);
      break;
    case schema::ObjectKind::kQueue:
      for (const auto& [name, q] : s.queues()) journaled.emplace_back(&q.object);
      break;
    case schema::ObjectKind::kQueueUnit:
      journaled.reserve(s.units().size());
      for (const auto& [key, u] : s.units()) journaled.emplace_back(&u.object);
      break;
  }
  return kube::relist_diff(journaled, std::move(listed), raw_mode);
}

}  // namespace koordq::controller
