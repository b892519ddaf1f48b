// Which quotas the console's tree shows (docs/behaviour.md §25.2): a tree of 10,000 quotas is cut
// from the top down — every level in full, name by name, until the limit — so a shown quota's
// parent is always shown and the cut falls on the deepest levels. With `match`, the quotas whose
// name contains it and every ancestor of theirs.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "actors/core/quota_tree.hpp"

namespace koordq::console {

struct QuotaTreeCut {
  std::vector<std::string> shown;                 // parents before children: by depth, then name
  size_t not_shown = 0;                           // chosen (matched or ancestor) but past the limit
  std::map<std::string, size_t> hidden_children;  // a shown quota → its children not shown
};

QuotaTreeCut cut_quota_tree(const actors::QuotaTree& tree, std::string_view match, size_t limit);

}  // namespace koordq::console
