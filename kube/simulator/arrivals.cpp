// SimulatedCluster: what operators and users create. The scenario's ElasticQuotas and Queues at
// start, and the QueueUnits of each job class as a Poisson process of the class's rate.
#include <algorithm>

#include "actors/core/unit_facts.hpp"
#include "base/time_units.hpp"
#include "kube/simulator/simulated_cluster.hpp"
#include "schema/quantity.hpp"

namespace koordq::kube::sim {
namespace {

using base::kMinute;
constexpr int kNameSuffixLength = 5;
constexpr char kParentLabel[] = "quota.scheduling.koordinator.sh/parent";
constexpr char kPolicyLabel[] = "koord-queue/queue-policy";
constexpr char kQuotaLabel[] = "quota.scheduling.koordinator.sh/name";
constexpr int32_t kAutoQueuePriority = 1000;

// Extended resources (`vendor/name`) must carry a limit equal to the request.
schema::ResourceList limits_of(const schema::ResourceList& requests) {
  schema::ResourceList out;
  for (const auto& [name, quantity] : requests) {
    if (name.find('/') != std::string::npos) out.emplace(name, quantity);
  }
  return out;
}

schema::ResourceList rendered(const schema::ResourceVector& v) {
  schema::ResourceList out;
  for (const auto& [name, amount] : v) out.emplace(name, schema::render_internal_amount(name, amount));
  return out;
}

// §2.5: the policy an auto-created Queue takes from its quota's label.
std::string queue_policy_of(const std::string& label) {
  for (const char* p : {"Priority", "Block", "Intelligent", "Round"}) {
    if (label == p) return label;
  }
  return "Priority";
}

}  // namespace

void SimulatedCluster::bootstrap() {
  const int64_t created = whole_seconds(clock_);
  for (const auto& q : scenario_.quotas) {
    if (store_.quota(object_key(q.namespace_, q.name)) != nullptr) continue;
    schema::ElasticQuota quota;
    quota.metadata.name = q.name;
    quota.metadata.namespace_ = q.namespace_;
    quota.metadata.uid = random_.uuid();
    quota.metadata.creation_timestamp = created;
    quota.metadata.labels = q.labels;
    if (!q.parent.empty()) quota.metadata.labels[kParentLabel] = q.parent;
    if (!q.policy.empty()) quota.metadata.labels[kPolicyLabel] = q.policy;
    quota.metadata.annotations = q.annotations;
    quota.spec.max = q.max;
    quota.spec.min = q.min;
    out_.push_back(store_.create(std::move(quota), clock_));
  }
  for (const auto& spec : scenario_.queues) {
    if (store_.queue(object_key(scenario_.queue_namespace, spec.name)) != nullptr) continue;
    const auto quota = std::find_if(scenario_.quotas.begin(), scenario_.quotas.end(),
                                    [&](const QuotaSpec& q) { return q.name == spec.name; });
    schema::Queue queue;
    queue.metadata.name = spec.name;
    queue.metadata.namespace_ = scenario_.queue_namespace;
    queue.metadata.uid = random_.uuid();
    queue.metadata.creation_timestamp = created;
    queue.metadata.labels = spec.labels;
    if (quota != scenario_.quotas.end() && !quota->parent.empty()) queue.metadata.labels[kParentLabel] = quota->parent;
    queue.metadata.annotations = spec.annotations;
    queue.spec.queue_policy = !spec.policy.empty()              ? spec.policy
                              : quota != scenario_.quotas.end() ? queue_policy_of(quota->policy)
                                                                : "Priority";
    queue.spec.priority = kAutoQueuePriority;
    for (const auto& check : spec.admission_checks) {
      schema::QueueAdmissionCheck c;
      c.name = check.name;
      if (!check.match_labels.empty()) c.label_selector = schema::LabelSelector{check.match_labels, {}};
      queue.spec.admission_checks.push_back(std::move(c));
    }
    out_.push_back(store_.create(std::move(queue), clock_));
  }
  for (size_t i = 0; i < scenario_.job_classes.size(); ++i) schedule_arrival(i);
}

void SimulatedCluster::schedule_arrival(size_t job_class) {
  const int64_t rate_ppm = scenario_.job_classes[job_class].arrivals_per_minute_ppm;
  if (rate_ppm <= 0) return;
  const auto mean = static_cast<int64_t>(static_cast<__int128>(kMinute) * kMillion / rate_ppm);
  const int64_t delay = std::max<int64_t>(scaled(random_.exponential(mean)), 1);
  Timer t(clock_ + delay, TimerKind::kArrival);
  t.job_class = job_class;
  schedule(std::move(t));
}

void SimulatedCluster::arrive(size_t job_class) {
  const JobClass& c = scenario_.job_classes[job_class];
  schedule_arrival(job_class);
  const std::set<std::string>& keys = class_jobs_[job_class];
  const auto live = std::count_if(keys.begin(), keys.end(), [&](const std::string& key) {
    const auto* unit = store_.unit(key);
    return unit != nullptr && !actors::is_terminal(actors::effective_phase(unit->status.phase));
  });
  if (c.max_units > 0 && live >= c.max_units) {
    ++stats_.arrivals_skipped;
    return;
  }
  const std::string& ns = c.namespaces[static_cast<size_t>(random_.uniform(0, std::ssize(c.namespaces) - 1))];
  std::string name;
  do {
    name = c.name + "-" + random_.name_suffix(kNameSuffixLength);
  } while (store_.unit(object_key(ns, name)) != nullptr);
  schema::QueueUnit unit = new_unit(c, ns, name);
  JobState job = new_job(unit);
  const std::string key = object_key(ns, name);
  if (random_.chance(c.inactive_ppm)) {
    unit.spec.active = false;
    schedule_for(key, job, TimerKind::kReactivate, draw_interval(c.reactivate_after));
  } else if (random_.chance(c.deactivate_ppm)) {
    schedule_for(key, job, TimerKind::kDeactivate, draw_interval(c.deactivate_after));
  }
  out_.push_back(store_.create(std::move(unit), clock_));
  if (job.job_class) class_jobs_[*job.job_class].insert(key);
  jobs_.emplace(key, std::move(job));
  ++stats_.arrivals;
}

schema::QueueUnit SimulatedCluster::new_unit(const JobClass& c, const std::string& ns, const std::string& name) {
  schema::QueueUnit u;
  u.metadata.name = name;
  u.metadata.namespace_ = ns;
  u.metadata.uid = random_.uuid();
  u.metadata.creation_timestamp = whole_seconds(clock_);
  u.metadata.labels = c.labels;
  u.metadata.labels[kQuotaLabel] = c.quota;
  u.metadata.labels[kJobClassLabel] = c.name;
  u.spec.consumer_ref = schema::ConsumerRef{c.api_version, c.kind, name, ns, random_.uuid()};
  if (!c.priorities.empty()) {
    u.spec.priority = c.priorities[static_cast<size_t>(random_.uniform(0, std::ssize(c.priorities) - 1))];
  }
  u.spec.priority_class_name = c.priority_class_name;
  schema::ResourceVector total;
  for (const auto& t : c.pod_sets) {
    schema::PodSet p;
    p.name = t.name;
    p.count = random_.uniform(t.replicas.min, t.replicas.max);
    p.containers.push_back({t.name, t.resources, limits_of(t.resources)});
    schema::add_to(total, schema::scaled(schema::to_vector(t.resources), p.count));
    u.spec.pod_set.push_back(std::move(p));
  }
  if (c.pod_sets.empty()) {
    u.spec.request = c.request;
    u.spec.resource = c.request;
  } else {
    u.spec.resource = rendered(total);
  }
  u.spec.maximum_execution_time_seconds = c.maximum_execution_time_seconds;
  return u;
}

}  // namespace koordq::kube::sim
