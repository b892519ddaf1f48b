// The ConfigMap that holds the journal's external witness (journal/witness.hpp, behaviour.md
// §24.5): reading it as the API server or `kubectl get configmap -o json` returns it, and the merge
// patch that replaces one journal's entry under a resourceVersion precondition. koordq never
// creates it: its RBAC names that one ConfigMap, and `create` cannot be limited to a name
// (ops/kubernetes/base/journal-witness.yaml ships it).
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::cmd {

inline constexpr char kDefaultWitnessConfigMap[] = "koordq-journal-witness";

struct WitnessConfigMap {
  std::string namespace_name;
  std::string name;
  std::string resource_version;
  std::map<std::string, std::string> data;  // journal UUID → its witness
};

std::string witness_configmap_path(std::string_view namespace_name, std::string_view name);

// A ConfigMap object; errors say what is missing ("not a ConfigMap: kind is Secret").
Result<WitnessConfigMap> parse_witness_configmap(std::string_view json);

// {"metadata":{"resourceVersion":"<rv>"},"data":{"<key>":"<value>"}}
std::string witness_configmap_patch(std::string_view resource_version, std::string_view key, std::string_view value);

}  // namespace koordq::cmd
