// Typed reading of a YAML document at the edge: every value is checked where it is read, and the
// first problem becomes one message naming the source, the line and the key path
// (`team.yaml:12: jobClasses[1].arrivalsPerMinute: must be a decimal ≥ 0, got "-1"`).
// Reading goes on after a problem with default values, so callers need no early returns.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "kube/simulator/scenario.hpp"

namespace koordq::kube::sim {

class YamlContext {
 public:
  explicit YamlContext(std::string source) : source_(std::move(source)) {}

  // Keeps the first problem only: later ones are usually its consequences.
  void fail(const YAML::Node& at, const std::string& path, const std::string& what);
  void fail(const YAML::Mark& at, const std::string& path, const std::string& what);
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::string error_;
};

// A YAML mapping whose keys must all be among `allowed`. Absent and null values read as absent.
class YamlMap {
 public:
  YamlMap(YamlContext& ctx, const YAML::Node& node, std::string path, std::initializer_list<std::string_view> allowed);

  bool has(const std::string& key) const { return entries_.count(key) != 0; }
  const YAML::Node* value(const std::string& key) const;
  std::string path_of(const std::string& key) const { return path_ + (path_.empty() ? "" : ".") + key; }
  YamlContext& context() const { return ctx_; }
  // Reports a missing required key at the mapping itself.
  void require(const std::string& key) const;

  std::string string(const std::string& key, std::string fallback = "") const;
  int64_t integer(const std::string& key, int64_t fallback, int64_t min, int64_t max) const;
  // A decimal ≥ 0 with at most 6 fractional digits, in parts per million.
  int64_t decimal_ppm(const std::string& key, int64_t fallback) const;
  // A percentage in [0, 100] as a probability in parts per million.
  int64_t percent_ppm(const std::string& key) const;
  schema::StringMap strings(const std::string& key) const;
  std::vector<std::string> string_list(const std::string& key) const;
  // Resource name → non-negative Kubernetes quantity, kept as written.
  schema::ResourceList quantities(const std::string& key) const;
  // `90s` (fixed), `{min: 10s, max: 1m}` (uniform) or `{mean: 40s, min: 5s, max: 5m}` (exponential).
  DurationDistribution duration(const std::string& key, DurationDistribution fallback) const;
  // `3` or `{min: 1, max: 8}`.
  ReplicaRange replicas(const std::string& key) const;
  // Each item of a sequence with its path (`key[i]`).
  std::vector<std::pair<YAML::Node, std::string>> items(const std::string& key) const;

 private:
  std::optional<std::string> scalar(const std::string& key) const;
  // The entries of a mapping of scalars, with their nodes (for the line of a bad value).
  std::vector<std::pair<std::string, YAML::Node>> string_entries(const std::string& key) const;

  YamlContext& ctx_;
  YAML::Node node_;
  std::string path_;
  std::map<std::string, YAML::Node> entries_;
};

}  // namespace koordq::kube::sim
