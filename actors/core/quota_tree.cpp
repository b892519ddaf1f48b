#include "actors/core/quota_tree.hpp"

#include <algorithm>
#include <limits>

#include "actors/core/unit_facts.hpp"

namespace koordq::actors {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t saturating_add(int64_t a, int64_t b) {
  return a > kMax - b ? kMax : a + b;
}

// ⌊max × rate_ppm / 10⁶⌋ with a 128-bit intermediate, saturating at 2⁶³−1 (§8.2).
int64_t scaled_limit(int64_t max, int64_t rate_ppm) {
  const __int128 v = static_cast<__int128>(max) * rate_ppm / 1'000'000;
  return v > kMax ? kMax : static_cast<int64_t>(v);
}

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += ',';
    out += n;
  }
  return out;
}

QuotaInfo info_of(const schema::ElasticQuota& q) {
  QuotaInfo info;
  info.object = q;
  info.name = q.metadata.name;
  info.namespace_ = q.metadata.namespace_;
  info.uid = q.metadata.uid;
  info.creation = q.metadata.creation_timestamp.value_or(0);
  const auto& labels = q.metadata.labels;
  if (auto it = labels.find("quota.scheduling.koordinator.sh/parent"); it != labels.end()) info.parent = it->second;
  if (info.parent == kRootQuota) info.parent.clear();
  if (auto it = labels.find("koord-queue/queue-policy"); it != labels.end()) info.queue_policy = it->second;
  const auto& annotations = q.metadata.annotations;
  if (auto it = annotations.find("quota-koord-queue-enable"); it != annotations.end()) {
    info.enable_annotation = it->second;
  }
  info.max_raw = q.spec.max;
  info.min_raw = q.spec.min;
  info.max = schema::to_vector(q.spec.max);
  info.min = schema::to_vector(q.spec.min);
  return info;
}

}  // namespace

const std::string* QuotaTree::effective_namespace(const std::string& name) const {
  const auto it = objects_.find(name);
  if (it == objects_.end() || it->second.empty()) return nullptr;
  const std::string* best = nullptr;
  const QuotaInfo* best_info = nullptr;
  for (const auto& [ns, info] : it->second) {
    if (best_info == nullptr || info.creation < best_info->creation) {
      best = &ns;
      best_info = &info;
    }
  }
  return best;  // map order makes the smaller namespace win ties
}

const QuotaInfo* QuotaTree::find(const std::string& name) const {
  if (name.empty() || name == kRootQuota) return nullptr;
  const std::string* ns = effective_namespace(name);
  return ns == nullptr ? nullptr : &objects_.at(name).at(*ns);
}

template <typename Mutate>
void QuotaTree::change_name(const std::string& name, Mutate mutate) {
  // The quotas below `name` are linked by their own parent labels, which the change leaves
  // alone: the subtree is the same before and after it.
  const std::vector<std::string> affected = subtree(name);
  move_charges(affected, false);
  unlink(name);
  mutate();
  link(name);
  for (const auto& n : affected) {
    if (known(n)) {
      paths_[n] = walk_path(n);
      usage_.try_emplace(n);
    } else {
      paths_.erase(n);
      usage_.erase(n);
    }
  }
  // Every path through a quota that came or went is in `affected`: once all their usage entries
  // exist, their usage paths are pointed again.
  for (const auto& n : affected) repoint(n);
  move_charges(affected, true);
}

bool QuotaTree::upsert(const schema::ElasticQuota& quota) {
  const std::string& name = quota.metadata.name;
  if (name == kRootQuota) return false;  // the implicit root is neither checked nor charged
  const QuotaInfo* before = find(name);
  const bool effective_before = before != nullptr && before->namespace_ == quota.metadata.namespace_;
  change_name(name, [&] { objects_[name][quota.metadata.namespace_] = info_of(quota); });
  const QuotaInfo* after = find(name);
  return effective_before || (after != nullptr && after->namespace_ == quota.metadata.namespace_);
}

bool QuotaTree::remove(const std::string& namespace_, const std::string& name) {
  auto it = objects_.find(name);
  if (it == objects_.end() || !it->second.count(namespace_)) return false;
  const QuotaInfo* before = find(name);
  const bool was_effective = before != nullptr && before->namespace_ == namespace_;
  change_name(name, [&] {
    it->second.erase(namespace_);
    if (it->second.empty()) objects_.erase(it);
  });
  return was_effective;
}

std::vector<std::string> QuotaTree::names() const {
  std::vector<std::string> out;
  out.reserve(paths_.size());
  for (const auto& [name, _] : paths_) out.push_back(name);
  return out;
}

std::vector<schema::ElasticQuota> QuotaTree::objects() const {
  std::vector<schema::ElasticQuota> out;
  for (const auto& [name, by_ns] : objects_) {
    for (const auto& [ns, info] : by_ns) out.push_back(info.object);
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> QuotaTree::ignored() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& [name, by_ns] : objects_) {
    const std::string* winner = effective_namespace(name);
    for (const auto& [ns, _] : by_ns) {
      if (winner != nullptr && ns != *winner) out.emplace_back(name, ns);
    }
  }
  return out;
}

std::string QuotaTree::parent_of(const std::string& name) const {
  const QuotaInfo* q = find(name);
  return q == nullptr ? std::string() : q->parent;
}

const std::vector<std::string>& QuotaTree::path_of(const std::string& name) const {
  static const std::vector<std::string> kNone;
  const auto it = paths_.find(name);
  return it == paths_.end() ? kNone : it->second;
}

std::vector<std::string> QuotaTree::walk_path(const std::string& name) const {
  std::vector<std::string> path;
  std::string q = name;
  while (!q.empty() && q != kRootQuota && known(q) && std::find(path.begin(), path.end(), q) == path.end()) {
    path.push_back(q);
    q = parent_of(q);
  }
  return path;
}

std::vector<std::string> QuotaTree::subtree(const std::string& name) const {
  std::vector<std::string> out{name};
  std::set<std::string> seen{name};
  for (size_t i = 0; i < out.size(); ++i) {
    const auto it = children_.find(out[i]);
    if (it == children_.end()) continue;
    for (const auto& child : it->second) {
      if (seen.insert(child).second) out.push_back(child);
    }
  }
  return out;
}

void QuotaTree::link(const std::string& name) {
  if (const QuotaInfo* q = find(name); q != nullptr && !q->parent.empty()) children_[q->parent].insert(name);
}

void QuotaTree::unlink(const std::string& name) {
  const QuotaInfo* q = find(name);
  if (q == nullptr || q->parent.empty()) return;
  if (auto it = children_.find(q->parent); it != children_.end()) {
    it->second.erase(name);
    if (it->second.empty()) children_.erase(it);
  }
}

void QuotaTree::reindex() {
  children_.clear();
  paths_.clear();
  for (const auto& [name, _] : objects_) link(name);
  for (const auto& [name, _] : objects_) {
    if (known(name)) paths_[name] = walk_path(name);
  }
  usage_paths_.clear();
  for (const auto& [name, _] : paths_) repoint(name);
}

void QuotaTree::repoint(const std::string& name) {
  const auto path = paths_.find(name);
  if (path == paths_.end()) {
    usage_paths_.erase(name);
    return;
  }
  std::vector<QuotaUsage*>& levels = usage_paths_[name];
  levels.clear();
  for (const auto& level : path->second) levels.push_back(&usage_[level]);
}

const std::vector<QuotaUsage*>* QuotaTree::usage_path_of(const std::string& label) const {
  const auto it = usage_paths_.find(label);
  return it == usage_paths_.end() ? nullptr : &it->second;
}

QuotaTree::QuotaTree(const QuotaTree& other)
    : objects_(other.objects_),
      self_used_(other.self_used_),
      self_count_(other.self_count_),
      usage_(other.usage_),
      children_(other.children_),
      paths_(other.paths_) {
  for (const auto& [name, _] : paths_) repoint(name);
}

QuotaTree& QuotaTree::operator=(const QuotaTree& other) {
  if (this != &other) *this = QuotaTree(other);
  return *this;
}

bool QuotaTree::operator==(const QuotaTree& other) const {
  return objects_ == other.objects_ && self_used_ == other.self_used_ && self_count_ == other.self_count_ &&
         usage_ == other.usage_ && children_ == other.children_ && paths_ == other.paths_;
}

// Like `recharge`, this adds and subtracts saturating amounts: a Used that reached 2^63-1 does not
// come back to the exact sum when a charge leaves (only for amounts no cluster holds; the result
// is still deterministic, so replay and restore agree with the live state).
void QuotaTree::move_charges(const std::vector<std::string>& labels, bool add) {
  for (const auto& label : labels) {
    const auto used = self_used_.find(label);
    const auto count = self_count_.find(label);
    if (used == self_used_.end() && count == self_count_.end()) continue;
    static const schema::ResourceVector kNothing;
    const schema::ResourceVector& charge = used == self_used_.end() ? kNothing : used->second;
    const int64_t n = count == self_count_.end() ? 0 : count->second;
    const auto* levels = usage_path_of(label);
    if (levels == nullptr) continue;
    for (size_t i = 0; i < levels->size(); ++i) {
      QuotaUsage& u = *(*levels)[i];
      auto& part = i == 0 ? u.self_used : u.children_used;
      if (add) {
        schema::add_to(u.used, charge);
        schema::add_to(part, charge);
        u.count += n;
      } else {
        schema::subtract_from(u.used, charge);
        schema::subtract_from(part, charge);
        u.count -= n;
      }
    }
  }
}

std::string QuotaTree::tree_of(const std::string& name) const {
  const auto& path = path_of(name);
  if (path.empty()) return name;
  const std::string& top = path.back();
  const std::string parent = parent_of(top);
  // A top whose parent is unknown, or whose path loops, is a tree of its own.
  return (parent.empty() || parent == kRootQuota) ? top : name;
}

void QuotaTree::recharge(const std::string& old_label, const schema::ResourceVector& old_charge, bool old_holds,
                         const std::string& new_label, const schema::ResourceVector& new_charge, bool new_holds) {
  auto apply = [&](const std::string& label, const schema::ResourceVector& charge, bool holds, bool add) {
    if (!holds || label.empty()) return;
    auto& self = self_used_[label];
    auto& count = self_count_[label];
    if (add) {
      schema::add_to(self, charge);
      ++count;
    } else {
      schema::subtract_from(self, charge);
      --count;
    }
    if (self.empty() && count <= 0) {
      self_used_.erase(label);
      self_count_.erase(label);
    }
    const auto* levels = usage_path_of(label);
    if (levels == nullptr) return;
    for (size_t i = 0; i < levels->size(); ++i) {
      QuotaUsage& u = *(*levels)[i];
      auto& part = i == 0 ? u.self_used : u.children_used;
      if (add) {
        schema::add_to(u.used, charge);
        schema::add_to(part, charge);
        ++u.count;
      } else {
        schema::subtract_from(u.used, charge);
        schema::subtract_from(part, charge);
        --u.count;
      }
    }
  };
  // Taking a charge off and putting the same one back is a no-op for non-negative amounts (the
  // saturating sums come back to where they were), and it is what most refreshes of a unit do.
  const bool unchanged = old_holds == new_holds && old_label == new_label && old_charge == new_charge &&
                         std::all_of(new_charge.begin(), new_charge.end(), [](const auto& e) { return e.second >= 0; });
  if (unchanged) return;
  apply(old_label, old_charge, old_holds, false);
  apply(new_label, new_charge, new_holds, true);
}

const QuotaUsage& QuotaTree::usage(const std::string& name) const {
  static const QuotaUsage kNone;
  const auto it = usage_.find(name);
  return it == usage_.end() ? kNone : it->second;
}

QuotaCheckResult QuotaTree::check(const std::string& item, const std::string& quota,
                                  const schema::ResourceVector& request, int64_t oversell_rate_ppm,
                                  const std::map<std::string, schema::ResourceVector>* extra) const {
  // The round's earlier reservations (by quota label) count on every level of the label's path;
  // read in place (vectors hold positive amounts, so the order of the saturating sums is free).
  std::vector<std::pair<const std::string*, const schema::ResourceVector*>> tentative;
  if (extra != nullptr) {
    for (const auto& [label, charge] : *extra) {
      for (const auto& level : path_of(label)) tentative.emplace_back(&level, &charge);
    }
  }
  QuotaCheckResult result;
  std::vector<std::string> visited;
  std::string q = quota;
  while (!q.empty() && q != kRootQuota) {
    if (!known(q)) {
      visited.push_back(q);
      result.passed = false;
      result.failure =
          "CheckUsage found quota not exist, item:" + item + ", quotaName:" + q + ", visited quota: " + join(visited);
      return result;
    }
    if (std::find(visited.begin(), visited.end(), q) != visited.end()) {
      visited.push_back(q);
      result.passed = false;
      result.failure =
          "CheckUsage found cycle reference, item:" + item + ", quotaName:" + q + ", visited quota: " + join(visited);
      return result;
    }
    visited.push_back(q);
    const QuotaInfo& info = *find(q);
    if (info.max.empty() && !request.empty()) {
      result.passed = false;
      result.failure = "limited quotaName:" + q + ", quota spec is empty but queue unit res is not empty";
      return result;
    }
    const auto usage_it = usage_.find(q);
    const schema::ResourceVector* used = usage_it == usage_.end() ? nullptr : &usage_it->second.used;
    for (const auto& [r, amount] : request) {
      const auto max_it = info.max.find(r);
      if (max_it == info.max.end()) continue;  // unconstrained
      int64_t u = 0;
      if (used != nullptr) {
        if (const auto it = used->find(r); it != used->end()) u = it->second;
      }
      for (const auto& [level, charge] : tentative) {
        if (*level != q) continue;
        if (const auto it = charge->find(r); it != charge->end()) u = saturating_add(u, it->second);
      }
      const int64_t limit = scaled_limit(max_it->second, oversell_rate_ppm);
      const bool pass = saturating_add(u, amount) <= limit;
      result.steps.push_back({q, r, u, amount, limit, pass});
      if (!pass) {
        result.passed = false;
        result.failure = "limited quotaName:" + q + ", limited resKey:" + r + ",";
        return result;
      }
    }
    q = info.parent;
  }
  return result;
}

}  // namespace koordq::actors
