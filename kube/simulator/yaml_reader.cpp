#include "kube/simulator/yaml_reader.hpp"

#include <charconv>
#include <set>

#include "base/decimal_ppm.hpp"
#include "base/go_duration.hpp"
#include "schema/quantity.hpp"

namespace koordq::kube::sim {
namespace {

std::string quoted(const std::string& text) {
  return "\"" + text + "\"";
}

std::string joined(std::initializer_list<std::string_view> names) {
  std::string out;
  for (const auto name : names) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

bool present(const YAML::Node& node) {
  return node.IsDefined() && !node.IsNull();
}

std::optional<int64_t> parse_int(const std::string& text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc{} || ptr != end || text.empty()) return std::nullopt;
  return value;
}

std::optional<int64_t> parse_duration(YamlContext& ctx, const YAML::Node& node, const std::string& path) {
  if (!node.IsScalar()) {
    ctx.fail(node, path, "must be a duration such as 90s or 2m");
    return std::nullopt;
  }
  const auto parsed = base::parse_go_duration(node.Scalar());
  if (!parsed) {
    ctx.fail(node, path, "must be a duration such as 90s or 2m, got " + quoted(node.Scalar()));
    return std::nullopt;
  }
  if (*parsed < 0) {
    ctx.fail(node, path, "must not be negative, got " + quoted(node.Scalar()));
    return std::nullopt;
  }
  return *parsed;
}

}  // namespace

void YamlContext::fail(const YAML::Node& at, const std::string& path, const std::string& what) {
  fail(at.Mark(), path, what);
}

void YamlContext::fail(const YAML::Mark& at, const std::string& path, const std::string& what) {
  if (failed()) return;
  error_ = source_;
  if (at.line >= 0) error_ += ":" + std::to_string(at.line + 1);
  error_ += ": " + (path.empty() ? std::string("(top level)") : path) + ": " + what;
}

YamlMap::YamlMap(YamlContext& ctx, const YAML::Node& node, std::string path,
                 std::initializer_list<std::string_view> allowed)
    : ctx_(ctx), node_(node), path_(std::move(path)) {
  if (!present(node)) return;
  if (!node.IsMap()) {
    ctx_.fail(node, path_, "must be a mapping of " + joined(allowed));
    return;
  }
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.IsScalar() ? it->first.Scalar() : "";
    bool known = false;
    for (const auto name : allowed) known = known || name == key;
    if (!known) {
      ctx_.fail(it->first, path_, "unknown key " + quoted(key) + " (expected one of: " + joined(allowed) + ")");
      continue;
    }
    if (entries_.count(key)) {
      ctx_.fail(it->first, path_of(key), "duplicate key");
      continue;
    }
    if (present(it->second)) entries_.emplace(key, it->second);
  }
}

const YAML::Node* YamlMap::value(const std::string& key) const {
  const auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : &it->second;
}

void YamlMap::require(const std::string& key) const {
  if (!has(key)) ctx_.fail(node_, path_of(key), "is required");
}

std::optional<std::string> YamlMap::scalar(const std::string& key) const {
  const YAML::Node* v = value(key);
  if (v == nullptr) return std::nullopt;
  if (!v->IsScalar()) {
    ctx_.fail(*v, path_of(key), "must be a single value");
    return std::nullopt;
  }
  return v->Scalar();
}

std::string YamlMap::string(const std::string& key, std::string fallback) const {
  return scalar(key).value_or(std::move(fallback));
}

int64_t YamlMap::integer(const std::string& key, int64_t fallback, int64_t min, int64_t max) const {
  const auto text = scalar(key);
  if (!text) return fallback;
  const auto parsed = parse_int(*text);
  if (!parsed || *parsed < min || *parsed > max) {
    ctx_.fail(*value(key), path_of(key),
              "must be an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + quoted(*text));
    return fallback;
  }
  return *parsed;
}

int64_t YamlMap::decimal_ppm(const std::string& key, int64_t fallback) const {
  const auto text = scalar(key);
  if (!text) return fallback;
  const auto parsed = base::parse_decimal_ppm(*text);
  if (!parsed) {
    ctx_.fail(*value(key), path_of(key),
              "must be a decimal ≥ 0 with at most 6 fractional digits, got " + quoted(*text));
    return fallback;
  }
  return *parsed;
}

int64_t YamlMap::percent_ppm(const std::string& key) const {
  const int64_t percent = decimal_ppm(key, 0);
  if (percent > 100 * kMillion) {
    ctx_.fail(*value(key), path_of(key), "must be a percentage in [0, 100], got " + quoted(*scalar(key)));
    return 0;
  }
  return percent / 100;
}

std::vector<std::pair<std::string, YAML::Node>> YamlMap::string_entries(const std::string& key) const {
  std::vector<std::pair<std::string, YAML::Node>> out;
  const YAML::Node* v = value(key);
  if (v == nullptr) return out;
  if (!v->IsMap()) {
    ctx_.fail(*v, path_of(key), "must be a mapping of strings");
    return out;
  }
  std::set<std::string> seen;
  for (auto it = v->begin(); it != v->end(); ++it) {
    if (!it->first.IsScalar() || !(it->second.IsScalar() || it->second.IsNull())) {
      ctx_.fail(it->first, path_of(key), "must be a mapping of strings");
      return out;
    }
    const std::string name = it->first.Scalar();
    if (!seen.insert(name).second) {
      ctx_.fail(it->first, path_of(key) + "." + name, "duplicate key");
      continue;
    }
    out.emplace_back(name, it->second);
  }
  return out;
}

schema::StringMap YamlMap::strings(const std::string& key) const {
  schema::StringMap out;
  for (const auto& [name, node] : string_entries(key)) out.emplace(name, node.IsNull() ? "" : node.Scalar());
  return out;
}

std::vector<std::string> YamlMap::string_list(const std::string& key) const {
  std::vector<std::string> out;
  for (const auto& [node, path] : items(key)) {
    if (!node.IsScalar() || node.Scalar().empty()) {
      ctx_.fail(node, path, "must be a non-empty string");
      continue;
    }
    out.push_back(node.Scalar());
  }
  return out;
}

schema::ResourceList YamlMap::quantities(const std::string& key) const {
  schema::ResourceList out;
  for (const auto& [name, node] : string_entries(key)) {
    const std::string text = node.IsNull() ? "" : node.Scalar();
    const std::string path = path_of(key) + "." + name;
    const auto parsed = schema::Quantity::parse(text);
    if (!parsed) {
      ctx_.fail(node, path, "invalid quantity " + quoted(text) + " (expected e.g. 500m, 4, 16Gi)");
    } else if (parsed->negative() && !parsed->is_zero()) {
      ctx_.fail(node, path, "must not be negative, got " + quoted(text));
    }
    out.emplace(name, text);
  }
  return out;
}

DurationDistribution YamlMap::duration(const std::string& key, DurationDistribution fallback) const {
  const YAML::Node* v = value(key);
  if (v == nullptr) return fallback;
  const std::string path = path_of(key);
  DurationDistribution d;
  if (v->IsScalar()) {
    d.min_nanos = parse_duration(ctx_, *v, path).value_or(0);
    return d;
  }
  const YamlMap m(ctx_, *v, path, {"min", "max", "mean"});
  auto read = [&](const std::string& k) -> int64_t {
    const YAML::Node* n = m.value(k);
    return n == nullptr ? 0 : parse_duration(ctx_, *n, m.path_of(k)).value_or(0);
  };
  d.min_nanos = read("min");
  d.max_nanos = read("max");
  d.mean_nanos = read("mean");
  if (m.has("mean")) {
    d.shape = DurationDistribution::Shape::kExponential;
    if (d.mean_nanos <= 0) ctx_.fail(*m.value("mean"), m.path_of("mean"), "must be greater than 0");
  } else {
    d.shape = DurationDistribution::Shape::kUniform;
    if (!m.has("min") || !m.has("max")) ctx_.fail(*v, path, "needs min and max, or mean");
  }
  if (m.has("max") && d.max_nanos < d.min_nanos) ctx_.fail(*v, path, "max must not be less than min");
  return d;
}

ReplicaRange YamlMap::replicas(const std::string& key) const {
  const YAML::Node* v = value(key);
  if (v == nullptr) return {};
  if (v->IsScalar()) {
    const int64_t n = integer(key, 1, 1, 1'000'000);
    return {n, n};
  }
  const YamlMap m(ctx_, *v, path_of(key), {"min", "max"});
  m.require("min");
  m.require("max");
  ReplicaRange r{m.integer("min", 1, 1, 1'000'000), m.integer("max", 1, 1, 1'000'000)};
  if (r.max < r.min) ctx_.fail(*v, path_of(key), "max must not be less than min");
  return r;
}

std::vector<std::pair<YAML::Node, std::string>> YamlMap::items(const std::string& key) const {
  std::vector<std::pair<YAML::Node, std::string>> out;
  const YAML::Node* v = value(key);
  if (v == nullptr) return out;
  if (!v->IsSequence()) {
    ctx_.fail(*v, path_of(key), "must be a list");
    return out;
  }
  for (size_t i = 0; i < v->size(); ++i) out.emplace_back((*v)[i], path_of(key) + "[" + std::to_string(i) + "]");
  return out;
}

}  // namespace koordq::kube::sim
