#include "console/state_lists.hpp"

#include "api/json_out.hpp"
#include "api/visibility_render.hpp"
#include "console/quota_tree_cut.hpp"

namespace koordq::console {

std::string render_quota_tree(const actors::Scheduler& s, uint64_t revision, const std::string& match, size_t limit) {
  const QuotaTreeCut cut = cut_quota_tree(s.quotas(), match, limit);
  const auto counts = api::phase_counts_by_quota(s);
  const api::PhaseCounts none;
  api::JsonOut out;
  out.begin_object().field("kind", "ElasticQuotaList").field("apiVersion", api::kVisibilityGroupVersion);
  api::write_list_metadata(out, revision, static_cast<int64_t>(cut.not_shown));
  out.key("items").begin_array();
  for (const std::string& name : cut.shown) {
    const auto c = counts.find(name);
    api::write_quota_item(out, s, *s.quotas().find(name), c == counts.end() ? none : c->second);
  }
  out.end_array();
  out.key("hiddenChildren").begin_object();
  for (const auto& [name, n] : cut.hidden_children) out.field(name, static_cast<int64_t>(n));
  out.end_object().end_object();
  return out.take();
}

std::string render_queues_matching(const actors::Scheduler& s, uint64_t revision, const std::string& match,
                                   size_t limit) {
  std::vector<const actors::QueueState*> found;
  size_t total = 0;
  for (const auto& [name, q] : s.queues()) {
    if (name.find(match) == std::string::npos) continue;
    if (found.size() < limit) found.push_back(&q);
    ++total;
  }
  api::JsonOut out;
  out.begin_object().field("kind", "QueueList").field("apiVersion", api::kVisibilityGroupVersion);
  api::write_list_metadata(out, revision, static_cast<int64_t>(total - found.size()));
  out.key("items").begin_array();
  for (const actors::QueueState* q : found) api::write_queue_item(out, s, *q);
  out.end_array().end_object();
  return out.take();
}

std::string render_units_matching(const actors::Scheduler& s, uint64_t revision, const std::string& match,
                                  size_t limit) {
  api::JsonOut out;
  out.begin_object().key("items").begin_array();
  size_t total = 0;
  for (const auto& [key, u] : s.units()) {
    if (key.find(match) == std::string::npos) continue;
    if (total++ >= limit) continue;
    out.begin_object().field("namespace", u.object.metadata.namespace_).field("name", u.object.metadata.name);
    out.field("queueName", u.quota).field("phase", actors::phase_name(u.phase)).end_object();
  }
  out.end_array();
  const size_t shown = std::min(total, limit);
  api::write_list_metadata(out, revision, static_cast<int64_t>(total - shown));
  out.end_object();
  return out.take();
}

}  // namespace koordq::console
