// The ElasticQuota tree and its accounting (behaviour.md §2.4, §8.2, §8.3). Quota names are global:
// of several objects with one name, the oldest (then the bytewise smaller namespace) is used.
// Charges arrive per unit as "this unit now charges vector V to quota label L"; the tree keeps
// SelfUsed per label (also for labels that name no known quota, which count nowhere until the
// quota appears) and Used = SelfUsed + Used of known children. Pure state, integer arithmetic.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "schema/elastic_quota.hpp"
#include "schema/resource_list.hpp"

namespace koordq::actors {

struct QuotaInfo {
  schema::ElasticQuota object;  // as last observed
  std::string name;
  std::string namespace_;
  std::string uid;
  int64_t creation = 0;                          // creationTimestamp, ns
  std::string parent;                            // label quota.scheduling.koordinator.sh/parent, "" = root
  std::string queue_policy;                      // label koord-queue/queue-policy
  std::optional<std::string> enable_annotation;  // quota-koord-queue-enable
  schema::ResourceList max_raw, min_raw;
  schema::ResourceVector max, min;

  bool operator==(const QuotaInfo&) const = default;
};

struct QuotaUsage {
  schema::ResourceVector self_used;
  schema::ResourceVector children_used;
  schema::ResourceVector used;
  int64_t count = 0;  // units holding quota here or below

  bool operator==(const QuotaUsage&) const = default;
};

// One evaluated (level, resource) of a quota check, for explain (§24.2).
struct QuotaCheckStep {
  std::string quota;
  std::string resource;
  int64_t used = 0;
  int64_t request = 0;
  int64_t limit = 0;
  bool pass = true;

  bool operator==(const QuotaCheckStep&) const = default;
};

struct QuotaCheckResult {
  bool passed = true;
  std::string failure;  // the §8.2 text
  std::vector<QuotaCheckStep> steps;
};

class QuotaTree {
 public:
  QuotaTree() = default;
  // A copy points its own usage paths at its own usage entries (`usage_paths_`); a move keeps
  // the map nodes, so the pointers stay valid.
  QuotaTree(const QuotaTree& other);
  QuotaTree& operator=(const QuotaTree& other);
  QuotaTree(QuotaTree&&) noexcept = default;
  QuotaTree& operator=(QuotaTree&&) noexcept = default;

  // Object events. Returns true when the effective quota of that name changed.
  bool upsert(const schema::ElasticQuota& quota);
  bool remove(const std::string& namespace_, const std::string& name);

  const QuotaInfo* find(const std::string& name) const;
  bool known(const std::string& name) const { return find(name) != nullptr; }
  std::vector<std::string> names() const;  // known quotas, bytewise order
  // The same names with their paths (path_of), without copying them.
  const std::map<std::string, std::vector<std::string>>& paths() const { return paths_; }
  // Every observed object, including those ignored for a name collision.
  std::vector<schema::ElasticQuota> objects() const;
  // Objects ignored because an older one has their name (name → namespaces), for the log.
  std::vector<std::pair<std::string, std::string>> ignored() const;

  // The parent of a known quota ("" for the root), and the quota-tree a name belongs to: the
  // ancestor directly under the root; the name itself when unknown or on a cycle.
  std::string parent_of(const std::string& name) const;
  std::string tree_of(const std::string& name) const;
  // The path q0, parent(q0), … stopping before the root; stops at the first unknown or repeated.
  // Empty for an unknown name.
  const std::vector<std::string>& path_of(const std::string& name) const;
  // The name and the known quotas below it: for a known name, exactly the quotas whose path
  // contains it.
  std::vector<std::string> subtree(const std::string& name) const;
  // Whether a known quota names `name` as its parent (subtree(name) is more than the name).
  bool has_children(const std::string& name) const { return children_.count(name) != 0; }

  // A unit's contribution moved from (old_label, old_charge, old_holds) to the new values.
  void recharge(const std::string& old_label, const schema::ResourceVector& old_charge, bool old_holds,
                const std::string& new_label, const schema::ResourceVector& new_charge, bool new_holds);

  const QuotaUsage& usage(const std::string& name) const;  // valid until the tree changes

  // §8.2 for a unit `item` (<ns>/<name>) of quota label `quota` asking for `request`, with
  // `extra` (this round's tentative reservations, per label) added to the usage.
  QuotaCheckResult check(const std::string& item, const std::string& quota, const schema::ResourceVector& request,
                         int64_t oversell_rate_ppm,
                         const std::map<std::string, schema::ResourceVector>* extra = nullptr) const;

  // The state, not the pointers derived from it.
  bool operator==(const QuotaTree& other) const;

 private:
  friend class StateSnapshotCodec;  // actors/wire/state_snapshot.cpp: snapshot and restore

  const std::string* effective_namespace(const std::string& name) const;
  // Replaces one name's objects and keeps the derived indexes and the usage in step: only the
  // quotas under that name (its subtree) change their path, so only their charges move.
  template <typename Mutate>
  void change_name(const std::string& name, Mutate mutate);
  std::vector<std::string> walk_path(const std::string& name) const;
  void move_charges(const std::vector<std::string>& labels, bool add);
  void link(const std::string& name);    // children_ and paths_ entries of one name, from objects_
  void unlink(const std::string& name);  // drop them
  void reindex();                        // every derived index from objects_ (after a restore)
  // usage_paths_[name] from paths_[name] (dropped with it).
  void repoint(const std::string& name);
  // The usage entries along the path of a label; nullptr for an unknown one.
  const std::vector<QuotaUsage*>* usage_path_of(const std::string& label) const;

  // name → namespace → object (all objects with that name).
  std::map<std::string, std::map<std::string, QuotaInfo>> objects_;
  std::map<std::string, schema::ResourceVector> self_used_;  // by label, known or not
  std::map<std::string, int64_t> self_count_;
  std::map<std::string, QuotaUsage> usage_;  // known quotas

  // Derived from objects_; not snapshotted (`reindex` rebuilds them).
  std::map<std::string, std::set<std::string>> children_;  // parent label → known quotas naming it
  std::map<std::string, std::vector<std::string>> paths_;  // known quota → path_of
  // Derived like paths_: the usage_ entry of every quota of a path, in the same order, so that a
  // charge moves along the path without a search per level.
  std::map<std::string, std::vector<QuotaUsage*>> usage_paths_;
};

}  // namespace koordq::actors
