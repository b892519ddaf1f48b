#include "api/queueing_metrics.hpp"

#include "api/metric_family_builder.hpp"

namespace koordq::api {
namespace {

using prometheus::MetricType;

// Internal amounts as the metric shows them: cpu in cores for the namespace family.
double cores_or_units(const std::string& resource, int64_t amount) {
  return resource == "cpu" ? static_cast<double>(amount) / 1000.0 : static_cast<double>(amount);
}

void histogram_of(FamilyBuilder& family, const LabelPairs& labels, const actors::Histogram& h, double unit) {
  std::vector<double> bounds;
  std::vector<uint64_t> cumulative;
  for (size_t i = 0; i < h.bounds.size(); ++i) {
    bounds.push_back(static_cast<double>(h.bounds[i]) / unit);
    cumulative.push_back(h.cumulative(i));
  }
  family.histogram(labels, bounds, cumulative, h.count, static_cast<double>(h.sum) / unit);
}

void keep(std::vector<prometheus::MetricFamily>& out, FamilyBuilder& family) {
  if (!family.empty()) out.push_back(family.take());
}

}  // namespace

prometheus::MetricFamily e2e_latency_family(const actors::Scheduler& s) {
  FamilyBuilder e2e("job_scheduling_e2e_latency",
                    "Milliseconds from a QueueUnit's creation to its first Dequeued write.", MetricType::Histogram);
  histogram_of(e2e, {}, s.metrics().e2e_latency, 1e6);
  return e2e.take();
}

std::vector<prometheus::MetricFamily> queueing_families(const actors::Scheduler& s, SeriesMemory& memory) {
  std::vector<prometheus::MetricFamily> out;

  FamilyBuilder active("queueunits_in_active_queue", "Active waiting QueueUnits of the queue.", MetricType::Gauge);
  FamilyBuilder backoff("queueunits_in_backoff_queue", "Backoff waiting QueueUnits of the queue.", MetricType::Gauge);
  // One pass over the units (no lookup per waiting unit): active and backoff per queue, and the
  // namespace families below.
  std::map<std::string, std::pair<int64_t, int64_t>> waiting;
  std::map<std::string, schema::ResourceVector> ns_used;
  std::map<std::pair<std::string, std::string>, int64_t> by_type;
  for (const auto& [key, u] : s.units()) {
    if (u.waiting) {
      auto& [a, b] = waiting[u.quota];
      ++(s.is_active(u) ? a : b);
    }
    const std::string& ns = u.object.metadata.namespace_;
    schema::ResourceVector& used = ns_used[ns];
    if (u.holds) schema::add_to(used, u.charge);
    const auto& ref = u.object.spec.consumer_ref;
    if (ref && !ref->kind.empty()) ++by_type[{ns, ref->kind}];
  }
  for (const auto& [name, q] : s.queues()) {
    const auto it = waiting.find(name);
    const auto [a, b] = it == waiting.end() ? std::pair<int64_t, int64_t>{0, 0} : it->second;
    active.sample({{"queue", name}}, static_cast<double>(a));
    backoff.sample({{"queue", name}}, static_cast<double>(b));
  }
  keep(out, active);
  keep(out, backoff);

  FamilyBuilder by_quota("dequeued_quota_usage_by_quota",
                         "Quota Used by resource; cpu in millicores, other resources in integer units.",
                         MetricType::Gauge);
  std::set<std::string> known;
  for (const std::string& name : s.quotas().names()) {
    known.insert(name);
    const actors::QuotaInfo& info = *s.quotas().find(name);
    const schema::ResourceVector used = s.quotas().usage(name).used;
    std::set<std::string>& shown = memory.quota_resources[name];
    for (const auto& [resource, amount] : info.max) shown.insert(resource);
    for (const auto& [resource, amount] : used) shown.insert(resource);
    for (const std::string& resource : shown) {
      const auto it = used.find(resource);
      by_quota.sample({{"quota", name}, {"resource", resource}},
                      static_cast<double>(it == used.end() ? 0 : it->second));
    }
  }
  std::erase_if(memory.quota_resources, [&](const auto& entry) { return !known.count(entry.first); });
  keep(out, by_quota);

  // A namespace's series stay, at 0 when nothing counts, until it has had no QueueUnit for
  // 5 minutes (§15.4): until then it has units or an entry in namespace_empty_since.
  const auto& empty_since = s.metrics().namespace_empty_since;
  auto gone = [&](const auto& entry) { return !ns_used.count(entry.first) && !empty_since.count(entry.first); };
  for (const auto& [ns, used] : ns_used) {
    for (const auto& [resource, amount] : used) memory.namespace_resources[ns].insert(resource);
  }
  for (const auto& [labels, n] : by_type) memory.namespace_types[labels.first].insert(labels.second);
  std::erase_if(memory.namespace_resources, gone);
  std::erase_if(memory.namespace_types, gone);
  FamilyBuilder by_namespace(
      "dequeued_quota_usage_by_namespace",
      "Charge of the namespace's QueueUnits holding quota; cpu in cores, others in integer units.", MetricType::Gauge);
  for (const auto& [ns, resources] : memory.namespace_resources) {
    const auto used = ns_used.find(ns);
    for (const std::string& resource : resources) {
      int64_t amount = 0;
      if (used != ns_used.end()) {
        if (auto it = used->second.find(resource); it != used->second.end()) amount = it->second;
      }
      by_namespace.sample({{"namespace", ns}, {"resource", resource}}, cores_or_units(resource, amount));
    }
  }
  keep(out, by_namespace);
  FamilyBuilder job_type("queueunits_by_job_type", "Existing QueueUnits by spec.consumerRef.kind.", MetricType::Gauge);
  for (const auto& [ns, types] : memory.namespace_types) {
    for (const std::string& type : types) {
      const auto it = by_type.find({ns, type});
      job_type.sample({{"namespace", ns}, {"type", type}}, static_cast<double>(it == by_type.end() ? 0 : it->second));
    }
  }
  keep(out, job_type);

  const actors::QueueingMetrics& m = s.metrics();
  FamilyBuilder coming("queueunits_coming_rate_by_job_type",
                       "QueueUnits entering an effective phase, by namespace, job type and phase.",
                       MetricType::Counter);
  for (const auto& [labels, n] : m.coming) {
    coming.sample({{"namespace", std::get<0>(labels)}, {"type", std::get<1>(labels)}, {"status", std::get<2>(labels)}},
                  static_cast<double>(n));
  }
  keep(out, coming);
  FamilyBuilder attempts("job_schedule_attempts", "Scheduling attempts by queue and result.", MetricType::Counter);
  for (const auto& [labels, n] : m.attempts) {
    if (!s.queues().count(labels.first)) continue;  // series go with their queue
    attempts.sample({{"queue", labels.first}, {"result", labels.second}}, static_cast<double>(n));
  }
  keep(out, attempts);
  FamilyBuilder wait("koordq_admission_wait_seconds",
                     "Seconds from creation or the last re-enqueue to admission, by queue.", MetricType::Histogram);
  for (const auto& [queue, h] : m.admission_wait) {
    if (!s.queues().count(queue)) continue;
    histogram_of(wait, {{"queue", queue}}, h, 1e9);
  }
  keep(out, wait);
  return out;
}

}  // namespace koordq::api
