// rapidcheck generators for whole scheduling scenarios: a small ElasticQuota tree, Queues over it,
// QueueUnits that all start unadmitted, and a script of what the cluster does over time. Steps
// hold raw numbers that the cluster simulation (cluster_sim.hpp) resolves against its current
// state ("the a-th running unit"), so every shrunk script is still a valid scenario.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <rapidcheck.h>

#include "actors/core/decision_config.hpp"
#include "schema/object_meta.hpp"

namespace koordq::testgen {

struct QuotaPlan {
  std::string name;
  std::string parent;  // "" = under the root
  int64_t max_cpu_millis = 0;
  std::optional<int64_t> max_memory_gi;
};

struct QueuePlan {
  std::string name;  // = its quota's name
  std::string policy;
  schema::StringMap annotations;
  bool admission_check = false;
};

struct PodSetPlan {
  int64_t count = 1;
  int64_t cpu_millis = 0;
};

struct UnitPlan {
  std::string namespace_;
  std::string name;
  std::string quota;                // label value; may name a quota without a queue, or none at all
  bool legacy_quota_label = false;  // alibabacloud.com/quota-name instead
  int32_t priority = 0;
  int64_t created_offset_seconds = 0;
  int64_t cpu_millis = 0;  // default pod set, per replica
  std::optional<int64_t> memory_gi;
  std::vector<PodSetPlan> pod_sets;  // empty: the default pod set
  std::optional<int32_t> max_exec_seconds;
};

enum class StepKind {
  kCreate,        // the next unit not yet created
  kPriority,      // a unit changes spec.priority
  kRun,           // a Dequeued or Running unit reports running pods
  kFinish,        // a Dequeued or Running unit ends Succeed or Failed
  kReclaim,       // a victim gives its marked replicas back
  kCheckVerdict,  // an admission-check controller rules on a Reserved unit
  kRequeue,       // the job extension puts a TimeoutBackoff unit back to Enqueued
  kToggleActive,  // spec.active flips
  kDelete,        // a unit is deleted
  kQuotaMax,      // a quota's cpu max changes
  kTick,          // time passes, a tick is journaled
  kRoleAcquired,  // this replica (re)acquires the lease
};

// How the step's batch treats writes in flight and the watch stream.
enum class Answer { kNone, kOldest, kPreviousRound, kAll };
enum class Deliver { kNone, kOne, kAll };

struct Step {
  StepKind kind = StepKind::kTick;
  uint32_t a = 0;  // which object
  uint32_t b = 0;  // which variant of the change
  int64_t dt_millis = 0;
  Answer answer = Answer::kAll;
  Deliver deliver = Deliver::kAll;
  bool answers_first = true;  // outcomes before the delivered watch events in the batch
  uint32_t results = 0;       // bits choosing each answered write's result
};

struct Scenario {
  actors::DecisionConfig config;
  std::vector<QuotaPlan> quotas;
  std::vector<QueuePlan> queues;
  std::vector<UnitPlan> units;
  std::vector<Step> steps;
};

inline const char* step_kind_name(StepKind k) {
  constexpr const char* kNames[] = {"create",  "priority",      "run",    "finish",    "reclaim", "check-verdict",
                                    "requeue", "toggle-active", "delete", "quota-max", "tick",    "role-acquired"};
  return kNames[static_cast<int>(k)];
}

// --- generators ------------------------------------------------------------------------------

inline rc::Gen<int64_t> cpu_millis() {
  return rc::gen::element<int64_t>(500, 1000, 1000, 2000, 3000, 4000);
}

// 1–2 top quotas, each with up to 2 children, each child with up to 1 grandchild.
inline rc::Gen<std::vector<QuotaPlan>> quota_tree() {
  return rc::gen::exec([] {
    std::vector<QuotaPlan> out;
    auto add = [&](std::string name, std::string parent) {
      QuotaPlan q;
      q.name = std::move(name);
      q.parent = std::move(parent);
      q.max_cpu_millis = *rc::gen::inRange<int64_t>(1, 13) * 1000;
      q.max_memory_gi = *rc::gen::weightedOneOf<std::optional<int64_t>>(
          {{3, rc::gen::just(std::optional<int64_t>())},
           {1, rc::gen::map(rc::gen::inRange<int64_t>(2, 17), [](int64_t g) { return std::optional<int64_t>(g); })}});
      out.push_back(std::move(q));
    };
    const int tops = *rc::gen::inRange(1, 3);
    for (int t = 0; t < tops; ++t) {
      const std::string top = "t" + std::to_string(t);
      add(top, "");
      const int children = *rc::gen::inRange(0, 3);
      for (int c = 0; c < children; ++c) {
        const std::string child = top + "-c" + std::to_string(c);
        add(child, top);
        if (*rc::gen::weightedOneOf<bool>({{2, rc::gen::just(false)}, {1, rc::gen::just(true)}})) {
          add(child + "-g", child);
        }
      }
    }
    return out;
  });
}

inline rc::Gen<QueuePlan> queue_plan(std::string name) {
  return rc::gen::exec([name] {
    QueuePlan q;
    q.name = name;
    q.policy = *rc::gen::weightedOneOf<std::string>({{6, rc::gen::just<std::string>("Priority")},
                                                     {4, rc::gen::just<std::string>("Block")},
                                                     {1, rc::gen::just<std::string>("")},
                                                     {1, rc::gen::just<std::string>("Fifo")}});
    if (*rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}})) {
      q.annotations["koord-queue/max-depth"] = *rc::gen::element<std::string>("1", "2", "3", "0", "x");
    }
    // Preemption needs both annotations "true" (§11): draw that combination often.
    const int gate = *rc::gen::weightedOneOf<int>(
        {{3, rc::gen::just(0)}, {1, rc::gen::just(1)}, {1, rc::gen::just(2)}, {3, rc::gen::just(3)}});
    if (gate != 0) {
      q.annotations["koord-queue/wait-for-pods-running"] = gate == 1 ? "false" : "true";
      q.annotations["koord-queue/enable-queueunit-preemption"] = gate == 2 ? "false" : "true";
    }
    if (*rc::gen::weightedOneOf<bool>({{5, rc::gen::just(false)}, {1, rc::gen::just(true)}})) {
      q.annotations["koord-queue/queue-items-refresh-interval"] = *rc::gen::element<std::string>("1s", "5s", "soon");
    }
    q.admission_check = *rc::gen::weightedOneOf<bool>({{4, rc::gen::just(false)}, {1, rc::gen::just(true)}});
    return q;
  });
}

inline rc::Gen<UnitPlan> unit_plan(int index, std::vector<std::string> quota_names) {
  return rc::gen::exec([index, quota_names] {
    UnitPlan u;
    u.namespace_ = *rc::gen::element<std::string>("ns-a", "ns-b");
    u.name = "u" + std::to_string(index);
    u.quota = *rc::gen::weightedOneOf<std::string>({{20, rc::gen::elementOf(quota_names)},
                                                    {1, rc::gen::just<std::string>("ghost")},
                                                    {1, rc::gen::just<std::string>("")}});
    u.legacy_quota_label = *rc::gen::weightedOneOf<bool>({{9, rc::gen::just(false)}, {1, rc::gen::just(true)}});
    u.priority = *rc::gen::element<int32_t>(-1, 0, 0, 0, 1, 2, 5);
    u.created_offset_seconds = *rc::gen::inRange<int64_t>(0, 4);
    u.cpu_millis = *cpu_millis();
    if (*rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}})) {
      u.memory_gi = *rc::gen::inRange<int64_t>(1, 5);
    }
    if (*rc::gen::weightedOneOf<bool>({{3, rc::gen::just(false)}, {1, rc::gen::just(true)}})) {
      const int sets = *rc::gen::inRange(1, 3);
      for (int i = 0; i < sets; ++i) {
        u.pod_sets.push_back(PodSetPlan{*rc::gen::inRange<int64_t>(1, 4), *rc::gen::element<int64_t>(250, 500, 1000)});
      }
    }
    if (*rc::gen::weightedOneOf<bool>({{5, rc::gen::just(false)}, {1, rc::gen::just(true)}})) {
      u.max_exec_seconds = *rc::gen::element<int32_t>(2, 10);
    }
    return u;
  });
}

inline rc::Gen<Step> step() {
  return rc::gen::exec([] {
    Step s;
    s.kind = *rc::gen::weightedOneOf<StepKind>({
        {8, rc::gen::just(StepKind::kCreate)},
        {2, rc::gen::just(StepKind::kPriority)},
        {5, rc::gen::just(StepKind::kRun)},
        {3, rc::gen::just(StepKind::kFinish)},
        {3, rc::gen::just(StepKind::kReclaim)},
        {2, rc::gen::just(StepKind::kCheckVerdict)},
        {1, rc::gen::just(StepKind::kRequeue)},
        {1, rc::gen::just(StepKind::kToggleActive)},
        {2, rc::gen::just(StepKind::kDelete)},
        {2, rc::gen::just(StepKind::kQuotaMax)},
        {6, rc::gen::just(StepKind::kTick)},
        {1, rc::gen::just(StepKind::kRoleAcquired)},
    });
    s.a = *rc::gen::inRange<uint32_t>(0, 1000);
    s.b = *rc::gen::inRange<uint32_t>(0, 1000);
    s.dt_millis = s.kind == StepKind::kTick ? *rc::gen::element<int64_t>(10, 100, 1000, 2000, 5000, 21000, 181000)
                                            : *rc::gen::element<int64_t>(0, 0, 1, 10, 100, 1000);
    s.answer = *rc::gen::weightedOneOf<Answer>({{1, rc::gen::just(Answer::kNone)},
                                                {1, rc::gen::just(Answer::kOldest)},
                                                {2, rc::gen::just(Answer::kPreviousRound)},
                                                {4, rc::gen::just(Answer::kAll)}});
    s.deliver = *rc::gen::weightedOneOf<Deliver>(
        {{1, rc::gen::just(Deliver::kNone)}, {1, rc::gen::just(Deliver::kOne)}, {5, rc::gen::just(Deliver::kAll)}});
    s.answers_first = *rc::gen::arbitrary<bool>();
    s.results = *rc::gen::arbitrary<uint32_t>();
    return s;
  });
}

inline rc::Gen<Scenario> scenario() {
  return rc::gen::exec([] {
    Scenario sc;
    sc.config.oversell_rate_ppm = *rc::gen::element<int64_t>(1'000'000, 1'000'000, 1'500'000, 800'000);
    sc.config.reclaim_protect_nanos = *rc::gen::element<int64_t>(0, 0, 2'000'000'000);
    sc.config.queue_items_max = *rc::gen::element<int64_t>(500, 2);
    sc.quotas = *quota_tree();
    std::vector<std::string> names;
    for (const auto& q : sc.quotas) names.push_back(q.name);
    for (const auto& name : names) {
      if (*rc::gen::weightedOneOf<bool>({{6, rc::gen::just(true)}, {1, rc::gen::just(false)}})) {
        sc.queues.push_back(*queue_plan(name));
      }
    }
    const int units = *rc::gen::inRange(5, 41);
    for (int i = 0; i < units; ++i) sc.units.push_back(*unit_plan(i, names));
    sc.steps = *rc::gen::scale(3.0, rc::gen::container<std::vector<Step>>(step()));
    return sc;
  });
}

// --- printing, for counterexamples --------------------------------------------------------------

inline void showValue(const Scenario& sc, std::ostream& os) {
  os << "config: oversell_rate_ppm=" << sc.config.oversell_rate_ppm
     << " reclaim_protect_nanos=" << sc.config.reclaim_protect_nanos << " queue_items_max=" << sc.config.queue_items_max
     << "\n";
  for (const auto& q : sc.quotas) {
    os << "quota " << q.name << " parent=" << (q.parent.empty() ? "-" : q.parent) << " cpu=" << q.max_cpu_millis << "m";
    if (q.max_memory_gi) os << " memory=" << *q.max_memory_gi << "Gi";
    os << "\n";
  }
  for (const auto& q : sc.queues) {
    os << "queue " << q.name << " policy=" << q.policy << (q.admission_check ? " check" : "");
    for (const auto& [k, v] : q.annotations) os << " " << k << "=" << v;
    os << "\n";
  }
  for (const auto& u : sc.units) {
    os << "unit " << u.namespace_ << "/" << u.name << " quota=" << u.quota << (u.legacy_quota_label ? "(legacy)" : "")
       << " prio=" << u.priority << " created=-" << u.created_offset_seconds << "s cpu=" << u.cpu_millis << "m";
    if (u.memory_gi) os << " memory=" << *u.memory_gi << "Gi";
    for (const auto& p : u.pod_sets) os << " podset(" << p.count << "x" << p.cpu_millis << "m)";
    if (u.max_exec_seconds) os << " maxexec=" << *u.max_exec_seconds << "s";
    os << "\n";
  }
  for (const auto& s : sc.steps) {
    os << "step " << step_kind_name(s.kind) << " a=" << s.a << " b=" << s.b << " dt=" << s.dt_millis
       << "ms answer=" << static_cast<int>(s.answer) << " deliver=" << static_cast<int>(s.deliver)
       << (s.answers_first ? " answers-first" : " events-first") << " results=" << s.results << "\n";
  }
}

}  // namespace koordq::testgen
