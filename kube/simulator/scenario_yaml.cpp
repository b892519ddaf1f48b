// Scenario YAML → Scenario (docs/scenario.md), with the cross-checks that keep a scenario from
// silently doing nothing: parents, check names and class quotas must exist, names are unique.
#include <algorithm>
#include <charconv>
#include <map>
#include <set>

#include "base/go_duration.hpp"
#include "kube/simulator/yaml_reader.hpp"

namespace koordq::kube::sim {
namespace {

using base::kSecond;
constexpr std::string_view kRootQuota = "koordinator-root-quota";
constexpr size_t kMaxClassNameLength = 50;  // leaves room for the generated suffix in a 63-char name

DurationDistribution fixed(int64_t nanos) {
  return {DurationDistribution::Shape::kFixed, nanos, 0, 0};
}
DurationDistribution uniform(int64_t min, int64_t max) {
  return {DurationDistribution::Shape::kUniform, min, max, 0};
}

// Lowercase alphanumerics, '-' and '.', starting and ending alphanumeric (DNS-1123 subdomain).
bool is_dns_name(const std::string& s, bool allow_dot) {
  if (s.empty() || s.size() > 253) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  for (char c : s) {
    if (!alnum(c) && c != '-' && !(allow_dot && c == '.')) return false;
  }
  return alnum(s.front()) && alnum(s.back());
}

std::string api_version_of_kind(const std::string& kind) {
  static const std::map<std::string, std::string> kKnown = {
      {"Job", "batch/v1"},
      {"PyTorchJob", "kubeflow.org/v1"},
      {"TFJob", "kubeflow.org/v1"},
      {"XGBoostJob", "kubeflow.org/v1"},
      {"PaddleJob", "kubeflow.org/v1"},
      {"MPIJob", "kubeflow.org/v2beta1"},
      {"RayJob", "ray.io/v1"},
      {"SparkApplication", "sparkoperator.k8s.io/v1beta2"},
      {"Workflow", "argoproj.io/v1alpha1"},
  };
  const auto it = kKnown.find(kind);
  return it == kKnown.end() ? "" : it->second;
}

class ScenarioReader {
 public:
  ScenarioReader(YamlContext& ctx, const YAML::Node& root) : ctx_(ctx), root_(root) {}

  Scenario read() {
    const YamlMap top(ctx_, root_, "",
                      {"name", "description", "queueNamespace", "conflictPercent", "jobExtension", "quotas", "queues",
                       "admissionChecks", "jobClasses"});
    if (!root_.IsMap()) ctx_.fail(root_, "", "a scenario must be a YAML mapping");
    Scenario s;
    s.name = top.string("name");
    s.description = top.string("description");
    s.queue_namespace = top.string("queueNamespace", s.queue_namespace);
    if (!is_dns_name(s.queue_namespace, false)) {
      ctx_.fail(top.has("queueNamespace") ? *top.value("queueNamespace") : root_, "queueNamespace",
                "must be a namespace name, got \"" + s.queue_namespace + "\"");
    }
    s.conflict_ppm = top.percent_ppm("conflictPercent");
    s.job_extension = job_extension(top);
    for (const auto& [node, path] : top.items("quotas")) s.quotas.push_back(quota(node, path));
    check_quota_tree(s, top);
    for (const auto& [node, path] : top.items("admissionChecks")) s.admission_checks.push_back(check(node, path));
    for (const auto& [node, path] : top.items("queues")) s.queues.push_back(queue(node, path));
    for (const auto& [node, path] : top.items("jobClasses")) s.job_classes.push_back(job_class(node, path, s));
    if (s.job_classes.empty()) ctx_.fail(root_, "jobClasses", "at least one job class is required");
    return s;
  }

 private:
  JobExtensionTimings job_extension(const YamlMap& top) {
    const YAML::Node node = top.value("jobExtension") ? *top.value("jobExtension") : YAML::Node();
    const YamlMap m(
        ctx_, node, "jobExtension",
        {"startDelay", "reclaimDelay", "suspendDelay", "evictDelay", "startTimeout", "timeoutBackoff", "deleteAfter"});
    JobExtensionTimings t;
    t.start_delay = m.duration("startDelay", uniform(1 * kSecond, 5 * kSecond));
    t.reclaim_delay = m.duration("reclaimDelay", uniform(1 * kSecond, 4 * kSecond));
    t.suspend_delay = m.duration("suspendDelay", fixed(2 * kSecond));
    t.evict_delay = m.duration("evictDelay", fixed(2 * kSecond));
    t.start_timeout = m.duration("startTimeout", fixed(60 * kSecond));
    t.timeout_backoff = m.duration("timeoutBackoff", fixed(30 * kSecond));
    t.delete_after = m.duration("deleteAfter", uniform(30 * kSecond, 90 * kSecond));
    return t;
  }

  QuotaSpec quota(const YAML::Node& node, const std::string& path) {
    const YamlMap m(ctx_, node, path, {"name", "namespace", "parent", "policy", "max", "min", "labels", "annotations"});
    m.require("name");
    QuotaSpec q;
    q.name = m.string("name");
    q.namespace_ = m.string("namespace", q.namespace_);
    q.parent = m.string("parent");
    if (q.parent == kRootQuota) q.parent.clear();
    q.policy = m.string("policy");
    q.max = m.quantities("max");
    q.min = m.quantities("min");
    q.labels = m.strings("labels");
    q.annotations = m.strings("annotations");
    if (m.has("name") && !is_dns_name(q.name, true))
      ctx_.fail(*m.value("name"), m.path_of("name"), "must be a DNS name");
    if (!is_dns_name(q.namespace_, false)) ctx_.fail(node, m.path_of("namespace"), "must be a namespace name");
    if (!quota_nodes_.emplace(q.name, node).second) ctx_.fail(node, m.path_of("name"), "duplicate quota " + q.name);
    return q;
  }

  void check_quota_tree(const Scenario& s, const YamlMap& top) {
    std::map<std::string, std::string> parent;
    for (const auto& q : s.quotas) parent[q.name] = q.parent;
    for (size_t i = 0; i < s.quotas.size(); ++i) {
      const auto& q = s.quotas[i];
      const std::string path = top.path_of("quotas") + "[" + std::to_string(i) + "].parent";
      if (!q.parent.empty() && !parent.count(q.parent)) {
        ctx_.fail(quota_nodes_[q.name], path, "unknown parent quota " + q.parent);
        continue;
      }
      std::set<std::string> seen{q.name};
      for (std::string p = q.parent; !p.empty(); p = parent[p]) {
        if (!seen.insert(p).second) {
          ctx_.fail(quota_nodes_[q.name], path, "the parent chain of " + q.name + " is a cycle");
          break;
        }
      }
    }
  }

  AdmissionCheckController check(const YAML::Node& node, const std::string& path) {
    const YamlMap m(ctx_, node, path, {"name", "readyAfter", "rejectPercent", "retryPercent"});
    m.require("name");
    AdmissionCheckController c;
    c.name = m.string("name");
    c.ready_after = m.duration("readyAfter", uniform(2 * kSecond, 10 * kSecond));
    c.reject_ppm = m.percent_ppm("rejectPercent");
    c.retry_ppm = m.percent_ppm("retryPercent");
    if (c.reject_ppm + c.retry_ppm > kMillion) ctx_.fail(node, path, "rejectPercent + retryPercent exceed 100");
    if (!checks_.insert(c.name).second) ctx_.fail(node, m.path_of("name"), "duplicate admission check " + c.name);
    return c;
  }

  QueueSpec queue(const YAML::Node& node, const std::string& path) {
    const YamlMap m(ctx_, node, path, {"name", "policy", "labels", "annotations", "admissionChecks"});
    m.require("name");
    QueueSpec q;
    q.name = m.string("name");
    q.policy = m.string("policy");
    q.labels = m.strings("labels");
    q.annotations = m.strings("annotations");
    for (const auto& [check_node, check_path] : m.items("admissionChecks")) {
      const YamlMap c(ctx_, check_node, check_path, {"name", "matchLabels"});
      c.require("name");
      QueueCheckSpec spec{c.string("name"), c.strings("matchLabels")};
      if (c.has("name") && !checks_.count(spec.name)) {
        ctx_.fail(*c.value("name"), c.path_of("name"),
                  "no admission-check controller " + spec.name + " under admissionChecks");
      }
      q.admission_checks.push_back(std::move(spec));
    }
    if (m.has("name") && !is_dns_name(q.name, true))
      ctx_.fail(*m.value("name"), m.path_of("name"), "must be a DNS name");
    if (!queues_.insert(q.name).second) ctx_.fail(node, m.path_of("name"), "duplicate queue " + q.name);
    return q;
  }

  JobClass job_class(const YAML::Node& node, const std::string& path, const Scenario& s) {
    const YamlMap m(ctx_, node, path,
                    {"name",
                     "kind",
                     "apiVersion",
                     "namespaces",
                     "quota",
                     "priorities",
                     "priorityClassName",
                     "labels",
                     "podSets",
                     "request",
                     "arrivalsPerMinute",
                     "maxUnits",
                     "runTime",
                     "startDelay",
                     "failurePercent",
                     "startTimeoutPercent",
                     "inactivePercent",
                     "deactivatePercent",
                     "deactivateAfter",
                     "reactivateAfter",
                     "maximumExecutionTimeSeconds"});
    for (const char* key : {"name", "kind", "namespaces", "quota", "arrivalsPerMinute", "runTime"}) m.require(key);
    JobClass c;
    c.name = m.string("name");
    if (m.has("name") && (!is_dns_name(c.name, false) || c.name.size() > kMaxClassNameLength)) {
      ctx_.fail(*m.value("name"), m.path_of("name"), "must be lowercase letters, digits and '-', at most 50 long");
    }
    if (!classes_.insert(c.name).second) ctx_.fail(node, m.path_of("name"), "duplicate job class " + c.name);
    c.kind = m.string("kind");
    c.api_version = m.string("apiVersion", api_version_of_kind(c.kind));
    if (m.has("kind") && c.api_version.empty()) {
      ctx_.fail(*m.value("kind"), m.path_of("apiVersion"), "is required for kind " + c.kind);
    }
    c.namespaces = m.string_list("namespaces");
    for (const auto& ns : c.namespaces) {
      if (!is_dns_name(ns, false)) ctx_.fail(*m.value("namespaces"), m.path_of("namespaces"), "bad namespace " + ns);
    }
    if (m.has("namespaces") && c.namespaces.empty()) {
      ctx_.fail(*m.value("namespaces"), m.path_of("namespaces"), "needs at least one namespace");
    }
    c.quota = m.string("quota");
    const bool known_quota =
        std::any_of(s.quotas.begin(), s.quotas.end(), [&](const QuotaSpec& q) { return q.name == c.quota; });
    if (m.has("quota") && !known_quota) ctx_.fail(*m.value("quota"), m.path_of("quota"), "unknown quota " + c.quota);
    for (const auto& [item, item_path] : m.items("priorities")) {
      int32_t v = 0;
      if (!item.IsScalar() || !parse_int32(item.Scalar(), v)) ctx_.fail(item, item_path, "must be a 32-bit integer");
      c.priorities.push_back(v);
    }
    c.priority_class_name = m.string("priorityClassName");
    c.labels = m.strings("labels");
    for (const auto& [item, item_path] : m.items("podSets")) c.pod_sets.push_back(pod_set(item, item_path));
    c.request = m.quantities("request");
    if (c.pod_sets.empty() == c.request.empty()) {
      ctx_.fail(node, path, "needs either podSets or request (not both)");
    }
    c.arrivals_per_minute_ppm = m.decimal_ppm("arrivalsPerMinute", 0);
    c.max_units = m.integer("maxUnits", c.max_units, 0, 1'000'000);
    c.run_time = m.duration("runTime", {});
    if (m.has("startDelay")) c.start_delay = m.duration("startDelay", {});
    c.failure_ppm = m.percent_ppm("failurePercent");
    c.start_timeout_ppm = m.percent_ppm("startTimeoutPercent");
    c.inactive_ppm = m.percent_ppm("inactivePercent");
    c.deactivate_ppm = m.percent_ppm("deactivatePercent");
    c.deactivate_after = m.duration("deactivateAfter", uniform(5 * kSecond, 60 * kSecond));
    c.reactivate_after = m.duration("reactivateAfter", uniform(30 * kSecond, 120 * kSecond));
    if (m.has("maximumExecutionTimeSeconds")) {
      c.maximum_execution_time_seconds =
          static_cast<int32_t>(m.integer("maximumExecutionTimeSeconds", 1, 1, INT32_MAX));
    }
    return c;
  }

  PodSetTemplate pod_set(const YAML::Node& node, const std::string& path) {
    const YamlMap m(ctx_, node, path, {"name", "replicas", "resources"});
    m.require("name");
    m.require("resources");
    PodSetTemplate p;
    p.name = m.string("name");
    if (m.has("name") && !is_dns_name(p.name, false))
      ctx_.fail(*m.value("name"), m.path_of("name"), "must be a DNS label");
    p.replicas = m.replicas("replicas");
    p.resources = m.quantities("resources");
    return p;
  }

  static bool parse_int32(const std::string& text, int32_t& out) {
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc{} && ptr == end && !text.empty();
  }

  YamlContext& ctx_;
  const YAML::Node& root_;
  std::map<std::string, YAML::Node> quota_nodes_;
  std::set<std::string> checks_, queues_, classes_;
};

}  // namespace

Result<Scenario> parse_scenario(std::string_view yaml, std::string_view source) {
  YamlContext ctx{std::string(source)};
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yaml));
  } catch (const YAML::Exception& e) {
    ctx.fail(e.mark, "", e.msg);
    return make_error(ctx.error());
  }
  Scenario s = ScenarioReader(ctx, root).read();
  if (ctx.failed()) return make_error(ctx.error());
  return s;
}

}  // namespace koordq::kube::sim
