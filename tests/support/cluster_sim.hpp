// A small stand-in for the API server and the job extensions, driven by a generated scenario
// (scenario_generators.hpp). It keeps the authoritative objects, changes them as a step says,
// answers koordq's writes (resourceVersion preconditions as the API server checks them, the write
// queue's latest-wins coalescing per unit, and sometimes an error), and echoes every change on an
// ordered watch stream that it delivers with a lag the step chooses.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <string>
#include <variant>
#include <vector>

#include "actors/core/scheduler.hpp"
#include "actors/core/status_change.hpp"
#include "actors/core/unit_facts.hpp"
#include "tests/support/scenario_generators.hpp"

namespace koordq::testing {

struct WatchInput {
  schema::WatchEventType type = schema::WatchEventType::kAdded;
  schema::WatchedObject object;
};
struct TickInput {};
struct RoleAcquiredInput {};
using ClusterInput = std::variant<WatchInput, actors::Outcome, TickInput, RoleAcquiredInput>;

class ClusterSim {
 public:
  static constexpr int64_t kSecond = 1'000'000'000;

  ClusterSim(const testgen::Scenario& scenario, int64_t start) : scenario_(scenario), start_(start) {}

  // The quotas, then the queues, ADDED.
  std::vector<ClusterInput> setup() {
    std::vector<ClusterInput> out;
    for (const auto& plan : scenario_.quotas) {
      schema::ElasticQuota q;
      q.metadata.name = plan.name;
      q.metadata.namespace_ = "quotas";
      q.metadata.uid = "uid-quota-" + plan.name;
      q.metadata.resource_version = next_rv();
      q.metadata.creation_timestamp = start_ - 3600 * kSecond;
      if (!plan.parent.empty()) q.metadata.labels["quota.scheduling.koordinator.sh/parent"] = plan.parent;
      q.spec.max["cpu"] = std::to_string(plan.max_cpu_millis) + "m";
      if (plan.max_memory_gi) q.spec.max["memory"] = std::to_string(*plan.max_memory_gi) + "Gi";
      quotas_[plan.name] = q;
      out.push_back(WatchInput{schema::WatchEventType::kAdded, q});
    }
    for (const auto& plan : scenario_.queues) {
      schema::Queue q;
      q.metadata.name = plan.name;
      q.metadata.namespace_ = scenario_.config.queue_namespace;
      q.metadata.uid = "uid-queue-" + plan.name;
      q.metadata.resource_version = next_rv();
      q.metadata.creation_timestamp = start_ - 3600 * kSecond;
      q.metadata.annotations = plan.annotations;
      q.spec.queue_policy = plan.policy;
      if (plan.admission_check) q.spec.admission_checks.push_back(schema::QueueAdmissionCheck{"provisioning", {}});
      queues_[plan.name] = q;
      out.push_back(WatchInput{schema::WatchEventType::kAdded, q});
    }
    return out;
  }

  // The inputs of one step's batch at `now`: the step's own input (tick, role), then the answers
  // to writes and the delivered watch events in the order the step chooses.
  std::vector<ClusterInput> batch(const testgen::Step& step, int64_t now) {
    std::vector<ClusterInput> out;
    act(step, now, out);
    if (step.answers_first) {
      answer(step, out);
      deliver(step.deliver, out);
    } else {
      deliver(step.deliver, out);
      answer(step, out);
    }
    return out;
  }

  // Everything in flight answered successfully where it can be, and the whole stream delivered.
  std::vector<ClusterInput> drain() {
    testgen::Step step;
    step.answer = testgen::Answer::kAll;
    step.deliver = testgen::Deliver::kAll;
    step.results = 0;
    std::vector<ClusterInput> out;
    answer(step, out);
    deliver(testgen::Deliver::kAll, out);
    return out;
  }

  // The writes of a journaled round are now in flight. A newer status write for a unit replaces
  // the one still queued for it (§7.6), which then never gets an answer.
  void on_round(uint64_t seq, const std::vector<actors::Decision>& decisions) {
    last_round_ = seq;
    for (uint32_t i = 0; i < decisions.size(); ++i) {
      const actors::Decision& d = decisions[i];
      if (d.status_patch) {
        const std::string key = unit_key_of(d.target);
        std::erase_if(in_flight_, [&](const Write& w) {
          return w.kind == actors::WriteKind::kStatusPatch && unit_key_of(w.decision.target) == key;
        });
        in_flight_.push_back(Write{seq, i, actors::WriteKind::kStatusPatch, 0, d});
      }
      if (d.spec_queue_patch) in_flight_.push_back(Write{seq, i, actors::WriteKind::kSpecQueuePatch, 0, d});
      if (d.queue_write) in_flight_.push_back(Write{seq, i, actors::WriteKind::kQueueWrite, 0, d});
      for (uint32_t e = 0; e < d.events.size(); ++e) {
        in_flight_.push_back(Write{seq, i, actors::WriteKind::kEvent, e, d});
      }
    }
  }

 private:
  struct Write {
    uint64_t seq;
    uint32_t index;
    actors::WriteKind kind;
    uint32_t write_index;
    actors::Decision decision;
  };

  static std::string unit_key_of(const actors::Target& target) {
    const auto* ref = std::get_if<actors::UnitRef>(&target);
    return ref == nullptr ? std::string() : ref->namespace_ + "/" + ref->name;
  }

  std::string next_rv() { return std::to_string(++rv_); }

  schema::QueueUnit make_unit(const testgen::UnitPlan& plan) {
    schema::QueueUnit u;
    u.metadata.name = plan.name;
    u.metadata.namespace_ = plan.namespace_;
    u.metadata.uid = "uid-" + plan.namespace_ + "-" + plan.name;
    u.metadata.resource_version = next_rv();
    u.metadata.creation_timestamp = start_ - plan.created_offset_seconds * kSecond;
    if (!plan.quota.empty()) {
      u.metadata
          .labels[plan.legacy_quota_label ? "alibabacloud.com/quota-name" : "quota.scheduling.koordinator.sh/name"] =
          plan.quota;
    }
    if (plan.priority != 0) u.spec.priority = plan.priority;
    u.spec.maximum_execution_time_seconds = plan.max_exec_seconds;
    u.spec.consumer_ref = schema::ConsumerRef{"batch/v1", "Job", plan.name, "", "uid-job-" + plan.name};
    // spec.resource is the whole request and agrees with the pod sets, as the job extensions
    // write it: the quota check uses the one and the charge the other (§8.1, §5.2).
    schema::ResourceList total;
    if (plan.pod_sets.empty()) {
      total["cpu"] = std::to_string(plan.cpu_millis) + "m";
      if (plan.memory_gi) total["memory"] = std::to_string(*plan.memory_gi) + "Gi";
    } else {
      int64_t cpu = 0;
      for (size_t i = 0; i < plan.pod_sets.size(); ++i) {
        const auto& ps = plan.pod_sets[i];
        schema::PodSet set;
        set.name = "set-" + std::to_string(i);
        set.count = ps.count;
        set.containers.push_back(
            schema::ContainerResources{"main", {{"cpu", std::to_string(ps.cpu_millis) + "m"}}, {}});
        u.spec.pod_set.push_back(std::move(set));
        cpu += ps.count * ps.cpu_millis;
      }
      total["cpu"] = std::to_string(cpu) + "m";
    }
    u.spec.resource = total;
    u.spec.request = total;
    return u;
  }

  void modified(schema::QueueUnit& u) {
    u.metadata.resource_version = next_rv();
    stream_.push_back(WatchInput{schema::WatchEventType::kModified, u});
  }

  // The a-th unit (in key order) that `pick` accepts, or nullptr.
  template <class Pick>
  schema::QueueUnit* choose(uint32_t a, Pick pick) {
    std::vector<schema::QueueUnit*> candidates;
    for (auto& [key, u] : units_) {
      if (pick(u)) candidates.push_back(&u);
    }
    return candidates.empty() ? nullptr : candidates[a % candidates.size()];
  }

  static bool phase_is(const schema::QueueUnit& u, std::initializer_list<const char*> phases) {
    for (const char* p : phases) {
      if (u.status.phase == p) return true;
    }
    return false;
  }

  void act(const testgen::Step& step, int64_t now, std::vector<ClusterInput>& out) {
    using testgen::StepKind;
    switch (step.kind) {
      case StepKind::kCreate: {
        if (next_unit_ >= scenario_.units.size()) return;
        schema::QueueUnit u = make_unit(scenario_.units[next_unit_++]);
        stream_.push_back(WatchInput{schema::WatchEventType::kAdded, u});
        units_[u.metadata.namespace_ + "/" + u.metadata.name] = std::move(u);
        return;
      }
      case StepKind::kPriority:
        if (auto* u = choose(step.a, [](const auto&) { return true; })) {
          const int32_t p = std::array<int32_t, 5>{-1, 0, 1, 3, 7}[step.b % 5];
          u->spec.priority = p == 0 ? std::optional<int32_t>() : std::optional<int32_t>(p);
          modified(*u);
        }
        return;
      case StepKind::kRun:
        if (auto* u = choose(step.a, [](const auto& x) {
              return phase_is(x, {"Dequeued", "Running"}) && !x.status.admissions.empty();
            })) {
          u->status.phase = "Running";
          u->status.message = "Running";
          for (auto& a : u->status.admissions) {
            const int64_t missing = static_cast<int64_t>(step.b % 3) == 0 ? 1 : 0;
            a.running = std::max<int64_t>(a.replicas - missing, 0);
          }
          modified(*u);
        }
        return;
      case StepKind::kFinish:
        if (auto* u = choose(step.a, [](const auto& x) { return phase_is(x, {"Dequeued", "Running"}); })) {
          u->status.phase = step.b % 2 == 0 ? "Succeed" : "Failed";
          u->status.message = u->status.phase == "Succeed" ? "Succeeded" : "Failed";
          modified(*u);
        }
        return;
      case StepKind::kReclaim:
        if (auto* u = choose(step.a, [](const auto& x) { return actors::reclaim_requested(x); })) {
          for (auto& a : u->status.admissions) {
            if (!a.reclaim_state) continue;
            a.replicas = std::max<int64_t>(a.replicas - a.reclaim_state->replicas, 0);
            a.running = std::min(a.running, a.replicas);
            a.reclaim_state.reset();
          }
          modified(*u);
        }
        return;
      case StepKind::kCheckVerdict:
        if (auto* u = choose(step.a, [](const auto& x) {
              return phase_is(x, {"Reserved"}) && !x.status.admission_checks.empty();
            })) {
          for (auto& c : u->status.admission_checks) {
            c.state = std::array<const char*, 4>{"Ready", "Ready", "Rejected", "Retry"}[step.b % 4];
            c.last_transition_time = now;
          }
          modified(*u);
        }
        return;
      case StepKind::kRequeue:
        if (auto* u = choose(step.a, [](const auto& x) { return phase_is(x, {"TimeoutBackoff"}); })) {
          u->status.phase = "Enqueued";
          u->status.message = "Enqueued because backoff timeout";
          u->status.admissions.clear();
          modified(*u);
        }
        return;
      case StepKind::kToggleActive:
        if (auto* u = choose(step.a, [](const auto&) { return true; })) {
          u->spec.active = u->spec.active.value_or(true) ? std::optional<bool>(false) : std::nullopt;
          modified(*u);
        }
        return;
      case StepKind::kDelete:
        if (auto* u = choose(step.a, [](const auto&) { return true; })) {
          u->metadata.resource_version = next_rv();
          stream_.push_back(WatchInput{schema::WatchEventType::kDeleted, *u});
          units_.erase(u->metadata.namespace_ + "/" + u->metadata.name);
        }
        return;
      case StepKind::kQuotaMax:
        if (!quotas_.empty()) {
          auto it = std::next(quotas_.begin(), static_cast<long>(step.a % quotas_.size()));
          it->second.spec.max["cpu"] = std::to_string((step.b % 12 + 1) * 1000) + "m";
          it->second.metadata.resource_version = next_rv();
          stream_.push_back(WatchInput{schema::WatchEventType::kModified, it->second});
        }
        return;
      case StepKind::kTick:
        out.push_back(TickInput{});
        return;
      case StepKind::kRoleAcquired:
        out.push_back(RoleAcquiredInput{});
        return;
    }
  }

  // 3 bits per write: 0–4 success (when the API server accepts it), 5 conflict, 6 error, 7 unknown.
  static actors::OutcomeResult drawn_result(uint32_t bits) {
    switch (bits & 7u) {
      case 5:
        return actors::OutcomeResult::kConflict;
      case 6:
        return actors::OutcomeResult::kError;
      case 7:
        return actors::OutcomeResult::kUnknown;
      default:
        return actors::OutcomeResult::kSuccess;
    }
  }

  actors::Outcome carry_out(const Write& w, actors::OutcomeResult drawn) {
    actors::Outcome o;
    o.decision_seq = w.seq;
    o.decision_index = w.index;
    o.write_kind = w.kind;
    o.write_index = w.write_index;
    o.target = w.decision.target;
    o.result = drawn;
    if (w.kind == actors::WriteKind::kEvent) {
      o.http_code = drawn == actors::OutcomeResult::kSuccess ? 201 : 0;
      return o;
    }
    if (w.kind == actors::WriteKind::kQueueWrite) {
      carry_out_queue_write(w, drawn, o);
      o.http_code = http_code(o.result);
      return o;
    }
    const auto& ref = std::get<actors::UnitRef>(w.decision.target);
    auto it = units_.find(ref.namespace_ + "/" + ref.name);
    if (it == units_.end() || it->second.metadata.uid != ref.uid) {
      o.result = actors::OutcomeResult::kNotFound;
    } else if (drawn == actors::OutcomeResult::kSuccess) {
      schema::QueueUnit& u = it->second;
      if (w.kind == actors::WriteKind::kStatusPatch) {
        if (w.decision.status_patch->resource_version != u.metadata.resource_version) {
          o.result = actors::OutcomeResult::kConflict;
        } else {
          u.status = actors::merged(u.status, *w.decision.status_patch);
        }
      } else {
        u.spec.queue = *w.decision.spec_queue_patch;
      }
      if (o.result == actors::OutcomeResult::kSuccess) {
        modified(u);
        o.resource_version = u.metadata.resource_version;
      }
    }
    o.http_code = http_code(o.result);
    return o;
  }

  // Queue writes as the API server answers them: a create of an existing Queue is 409
  // (AlreadyExists), any other write of a missing one 404; merge-PATCHes of annotations, labels,
  // spec.queuePolicy and status.queueItemDetails.
  void carry_out_queue_write(const Write& w, actors::OutcomeResult drawn, actors::Outcome& o) {
    const auto& name = std::get<actors::QueueRef>(w.decision.target).name;
    const actors::QueueWrite& write = *w.decision.queue_write;
    auto it = queues_.find(name);
    if (const auto* create = std::get_if<schema::Queue>(&write)) {
      if (it != queues_.end()) {
        o.result = actors::OutcomeResult::kConflict;
      } else if (drawn == actors::OutcomeResult::kSuccess) {
        schema::Queue q = *create;
        q.metadata.name = name;
        q.metadata.namespace_ = scenario_.config.queue_namespace;
        q.metadata.uid = "uid-queue-" + name + "-" + std::to_string(rv_);
        q.metadata.resource_version = next_rv();
        q.metadata.creation_timestamp = start_;
        o.resource_version = q.metadata.resource_version;
        stream_.push_back(WatchInput{schema::WatchEventType::kAdded, q});
        queues_[name] = std::move(q);
      }
      return;
    }
    if (it == queues_.end()) {
      o.result = actors::OutcomeResult::kNotFound;
      return;
    }
    if (drawn != actors::OutcomeResult::kSuccess) return;
    schema::Queue& q = it->second;
    if (std::holds_alternative<actors::QueueDelete>(write)) {
      q.metadata.resource_version = next_rv();
      stream_.push_back(WatchInput{schema::WatchEventType::kDeleted, q});
      queues_.erase(it);
      return;
    }
    auto patch_map = [](schema::StringMap& map, const actors::MapPatch& patch) {
      for (const auto& [key, value] : patch) {
        if (value) {
          map[key] = *value;
        } else {
          map.erase(key);
        }
      }
    };
    if (const auto* details = std::get_if<schema::QueueItemDetails>(&write)) {
      q.status.queue_item_details = *details;
    } else if (const auto* usage = std::get_if<actors::UsageAnnotations>(&write)) {
      for (const auto& [key, value] : *usage) q.metadata.annotations[std::string(key)] = value;
    } else if (const auto* patch = std::get_if<actors::QueuePatch>(&write)) {
      if (patch->queue_policy) q.spec.queue_policy = *patch->queue_policy;
      patch_map(q.metadata.labels, patch->labels);
      patch_map(q.metadata.annotations, patch->annotations);
    }
    q.metadata.resource_version = next_rv();
    o.resource_version = q.metadata.resource_version;
    stream_.push_back(WatchInput{schema::WatchEventType::kModified, q});
  }

  static int32_t http_code(actors::OutcomeResult r) {
    switch (r) {
      case actors::OutcomeResult::kSuccess:
        return 200;
      case actors::OutcomeResult::kConflict:
        return 409;
      case actors::OutcomeResult::kNotFound:
        return 404;
      case actors::OutcomeResult::kError:
        return 500;
      case actors::OutcomeResult::kUnknown:
        return 0;
    }
    return 0;
  }

  void answer(const testgen::Step& step, std::vector<ClusterInput>& out) {
    std::deque<Write> keep;
    uint32_t bits = step.results;
    bool answered_one = false;
    while (!in_flight_.empty()) {
      Write w = std::move(in_flight_.front());
      in_flight_.pop_front();
      bool now = false;
      switch (step.answer) {
        case testgen::Answer::kNone:
          break;
        case testgen::Answer::kOldest:
          now = !answered_one;
          break;
        case testgen::Answer::kPreviousRound:
          now = w.seq == last_round_;
          break;
        case testgen::Answer::kAll:
          now = true;
          break;
      }
      if (!now) {
        keep.push_back(std::move(w));
        continue;
      }
      answered_one = true;
      out.push_back(carry_out(w, drawn_result(bits)));
      bits = (bits >> 3) | (bits << 29);
      // The spec.queue patch follows its status write only when that landed (§7.3).
      const auto& answer = std::get<actors::Outcome>(out.back());
      if (w.kind == actors::WriteKind::kStatusPatch && answer.result != actors::OutcomeResult::kSuccess) {
        std::erase_if(in_flight_, [&](const Write& x) {
          return x.seq == w.seq && x.index == w.index && x.kind == actors::WriteKind::kSpecQueuePatch;
        });
        std::erase_if(keep, [&](const Write& x) {
          return x.seq == w.seq && x.index == w.index && x.kind == actors::WriteKind::kSpecQueuePatch;
        });
      }
    }
    in_flight_ = std::move(keep);
  }

  void deliver(testgen::Deliver how, std::vector<ClusterInput>& out) {
    size_t n = how == testgen::Deliver::kNone ? 0 : how == testgen::Deliver::kOne ? 1 : stream_.size();
    while (n-- > 0 && !stream_.empty()) {
      out.push_back(std::move(stream_.front()));
      stream_.pop_front();
    }
  }

  const testgen::Scenario& scenario_;
  const int64_t start_;
  int64_t rv_ = 1000;
  size_t next_unit_ = 0;
  uint64_t last_round_ = 0;
  std::map<std::string, schema::QueueUnit> units_;
  std::map<std::string, schema::ElasticQuota> quotas_;
  std::map<std::string, schema::Queue> queues_;
  std::deque<WatchInput> stream_;
  std::deque<Write> in_flight_;
};

}  // namespace koordq::testing
