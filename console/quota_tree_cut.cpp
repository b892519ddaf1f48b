#include "console/quota_tree_cut.hpp"

#include <algorithm>
#include <set>

namespace koordq::console {

QuotaTreeCut cut_quota_tree(const actors::QuotaTree& tree, std::string_view match, size_t limit) {
  // paths(): each known quota with its path to the root (itself first), in name order.
  std::set<std::string_view> chosen;
  for (const auto& [name, path] : tree.paths()) {
    if (!match.empty() && name.find(match) == std::string::npos) continue;
    for (const std::string& level : path) {
      if (!chosen.insert(level).second) break;  // its ancestors are in already
    }
  }
  std::vector<std::pair<size_t, std::string_view>> ordered;  // (depth, name)
  ordered.reserve(chosen.size());
  for (const std::string_view name : chosen) ordered.emplace_back(tree.path_of(std::string(name)).size(), name);
  std::sort(ordered.begin(), ordered.end());

  QuotaTreeCut cut;
  const size_t shown = std::min(limit, ordered.size());
  cut.not_shown = ordered.size() - shown;
  std::set<std::string_view> is_shown;
  for (size_t i = 0; i < shown; ++i) {
    cut.shown.emplace_back(ordered[i].second);
    is_shown.insert(ordered[i].second);
  }
  for (size_t i = shown; i < ordered.size(); ++i) {
    const std::string parent = tree.parent_of(std::string(ordered[i].second));
    if (is_shown.count(parent)) ++cut.hidden_children[parent];
  }
  return cut;
}

}  // namespace koordq::console
