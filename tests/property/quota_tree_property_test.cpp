// QuotaTree keeps its paths, children and usage incrementally (only the subtree of a changed
// name moves). Over random ElasticQuota upserts and removals — name collisions across
// namespaces, reparenting, unknown parents, cycles — and random unit charges, every observable
// equals a reference recomputed from scratch after each step: the known names, every path, the
// subtree relation, and Used / SelfUsed / ChildrenUsed / Count of every known quota.
#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "actors/core/quota_tree.hpp"
#include "actors/core/unit_facts.hpp"

namespace koordq::actors {
namespace KOORDQ_TEST_LOCAL {

const std::vector<std::string> kNames = {"a", "b", "c", "d", "e"};
const std::vector<std::string> kNamespaces = {"n1", "n2"};

struct ObjectModel {
  std::string parent;  // label value; "" = none
  int64_t creation = 0;
  int64_t max_cpu = 0;
};

struct Charge {
  std::string label;
  int64_t cpu = 0;
  bool holds = false;
};

// The reference: the objects by (name, namespace) and the units' current charges.
struct Reference {
  std::map<std::pair<std::string, std::string>, ObjectModel> objects;
  std::map<int, Charge> units;

  const ObjectModel* effective(const std::string& name) const {
    const ObjectModel* best = nullptr;
    for (const auto& [key, o] : objects) {
      if (key.first != name) continue;
      if (best == nullptr || o.creation < best->creation) best = &o;  // map order: smaller namespace wins ties
    }
    return best;
  }
  std::set<std::string> names() const {
    std::set<std::string> out;
    for (const auto& [key, _] : objects) {
      if (key.first != std::string(kRootQuota)) out.insert(key.first);
    }
    return out;
  }
  std::vector<std::string> path(const std::string& name) const {
    std::vector<std::string> out;
    std::string q = name;
    while (!q.empty() && q != kRootQuota && effective(q) != nullptr &&
           std::find(out.begin(), out.end(), q) == out.end()) {
      out.push_back(q);
      q = effective(q)->parent == kRootQuota ? std::string() : effective(q)->parent;
    }
    return out;
  }
  std::map<std::string, QuotaUsage> usage() const {
    std::map<std::string, QuotaUsage> out;
    for (const auto& n : names()) out[n];
    for (const auto& [_, c] : units) {
      if (!c.holds || c.label.empty()) continue;
      const auto p = path(c.label);
      for (size_t i = 0; i < p.size(); ++i) {
        auto& u = out[p[i]];
        schema::add_to(u.used, {{"cpu", c.cpu}});
        schema::add_to(i == 0 ? u.self_used : u.children_used, {{"cpu", c.cpu}});
        ++u.count;
      }
    }
    return out;
  }
};

schema::ElasticQuota quota_object(const std::string& name, const std::string& ns, const ObjectModel& m) {
  schema::ElasticQuota q;
  q.metadata.name = name;
  q.metadata.namespace_ = ns;
  q.metadata.uid = "uid-" + ns + "-" + name;
  q.metadata.creation_timestamp = m.creation;
  if (!m.parent.empty()) q.metadata.labels["quota.scheduling.koordinator.sh/parent"] = m.parent;
  q.spec.max = {{"cpu", std::to_string(m.max_cpu)}};
  return q;
}

void expect_matches(const QuotaTree& tree, const Reference& ref) {
  const auto names = tree.names();
  const std::set<std::string> expected_names = ref.names();
  RC_ASSERT(std::set<std::string>(names.begin(), names.end()) == expected_names);
  RC_ASSERT(std::is_sorted(names.begin(), names.end()));
  const auto usage = ref.usage();
  for (const auto& n : kNames) {
    RC_ASSERT(tree.path_of(n) == ref.path(n));
    RC_ASSERT(tree.known(n) == (expected_names.count(n) > 0));
    const auto it = usage.find(n);
    RC_ASSERT(tree.usage(n) == (it == usage.end() ? QuotaUsage{} : it->second));
    if (!tree.known(n)) continue;
    const auto sub = tree.subtree(n);
    for (const auto& m : kNames) {
      const auto p = ref.path(m);
      const bool through = std::find(p.begin(), p.end(), n) != p.end();
      RC_ASSERT(through == (std::find(sub.begin(), sub.end(), m) != sub.end()));
    }
  }
}

RC_GTEST_PROP(QuotaTreeProperty, incremental_paths_and_usage_equal_a_recomputation_after_every_step, ()) {
  QuotaTree tree;
  Reference ref;
  const auto parents = [] {
    std::vector<std::string> p = kNames;
    p.insert(p.end(), {"", std::string(kRootQuota), "zz-unknown"});
    return p;
  }();
  const int steps = *rc::gen::inRange(1, 60);
  for (int step = 0; step < steps; ++step) {
    const int op = *rc::gen::inRange(0, 10);
    if (op < 4) {
      const std::string name = *rc::gen::elementOf(kNames);
      const std::string ns = *rc::gen::elementOf(kNamespaces);
      ObjectModel m{*rc::gen::elementOf(parents), *rc::gen::inRange<int64_t>(0, 3), *rc::gen::inRange<int64_t>(0, 100)};
      tree.upsert(quota_object(name, ns, m));
      ref.objects[{name, ns}] = m;
    } else if (op < 6) {
      const std::string name = *rc::gen::elementOf(kNames);
      const std::string ns = *rc::gen::elementOf(kNamespaces);
      tree.remove(ns, name);
      ref.objects.erase({name, ns});
    } else {
      const int unit = *rc::gen::inRange(0, 6);
      const Charge before = ref.units[unit];
      Charge after{*rc::gen::elementOf(parents), *rc::gen::inRange<int64_t>(0, 50), *rc::gen::arbitrary<bool>()};
      if (after.cpu == 0) after.holds = false;  // a unit holding nothing is not counted
      tree.recharge(before.label, before.holds ? schema::ResourceVector{{"cpu", before.cpu}} : schema::ResourceVector{},
                    before.holds && !before.label.empty(), after.label,
                    after.holds ? schema::ResourceVector{{"cpu", after.cpu}} : schema::ResourceVector{},
                    after.holds && !after.label.empty());
      ref.units[unit] = after;
    }
    expect_matches(tree, ref);
    const QuotaTree copy = tree;  // the derived indexes are values: a copy is equal and answers the same
    RC_ASSERT(copy == tree);
    expect_matches(copy, ref);
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors
