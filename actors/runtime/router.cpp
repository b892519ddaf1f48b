#include "actors/runtime/router.hpp"

#include <memory>

#include "actors/runtime/decision_log.hpp"
#include "actors/runtime/quota_actor.hpp"
#include "actors/runtime/tree_coordinator.hpp"
#include "actors/wire/record_apply.hpp"

namespace koordq::actors::runtime {
namespace {

using Self = caf::stateful_actor<RouterState>;

// Spawns actors for new names and stops those whose name is gone.
template <class Names, class Spawn>
void reconcile(Self* self, std::map<std::string, caf::actor>& actors, const Names& names, Spawn spawn) {
  for (auto it = actors.begin(); it != actors.end();) {
    if (names.count(it->first)) {
      ++it;
      continue;
    }
    self->unlink_from(it->second);
    self->send_exit(it->second, caf::exit_reason::user_shutdown);
    it = actors.erase(it);
  }
  for (const auto& [name, unused] : names) {
    (void)unused;
    if (!actors.count(name)) actors.emplace(name, spawn(name));
  }
}

// Only quotas whose content changed get a new view: nothing is copied for the others.
void refresh_quotas(Self* self) {
  auto& st = self->state;
  const QuotaTree& tree = st.scheduler.quotas();
  std::map<std::string, bool> names;
  for (const auto& name : tree.names()) {
    names.emplace(name, true);
    const QuotaInfo& info = *tree.find(name);
    std::string tree_name = tree.tree_of(name);
    const QuotaUsage& usage = tree.usage(name);
    const auto known = st.quota_views.find(name);
    if (known != st.quota_views.end() && known->second.usage == usage && known->second.tree == tree_name &&
        known->second.info == info) {
      continue;
    }
    QuotaView view{st.applied_seq, info, std::move(tree_name), usage};
    if (const auto actor = st.quotas.find(name); actor != st.quotas.end()) {
      self->send(actor->second, update_atom::value, view);
    }
    st.quota_views.insert_or_assign(name, std::move(view));
  }
  reconcile(self, st.quotas, names,
            [&](const std::string& name) { return self->spawn<caf::linked>(quota_actor, st.quota_views.at(name)); });
  std::erase_if(st.quota_views, [&](const auto& entry) { return !names.count(entry.first); });
}

struct RoundJob {
  std::vector<std::vector<Decision>> trees;  // in tree-name order
  size_t outstanding = 0;
  std::optional<caf::error> failure;
  caf::response_promise promise;
};

void finish_round(Self* self, const std::shared_ptr<RoundJob>& job) {
  if (job->failure) {
    job->promise.deliver(*job->failure);
    return;
  }
  DecisionList out;
  for (auto& part : job->trees) {
    for (auto& d : part) out.decisions.push_back(std::move(d));
  }
  for (auto& d : self->state.scheduler.decide_unmapped()) out.decisions.push_back(std::move(d));
  job->promise.deliver(std::move(out));
}

void decide_round(Self* self) {
  auto& st = self->state;
  const auto plan = st.scheduler.round_trees();
  std::map<std::string, bool> queue_names;
  for (const auto& [tree, names] : plan) {
    for (const auto& n : names) queue_names.emplace(n, true);
  }
  reconcile(self, st.queues, queue_names,
            [&](const std::string& name) { return self->spawn<caf::linked>(queue_actor, name, st.observe_latency); });
  reconcile(self, st.trees, plan,
            [&](const std::string& name) { return self->spawn<caf::linked>(tree_coordinator, name); });
  log_changed_queue_settings(st.scheduler, st.queue_settings);

  auto job = std::make_shared<RoundJob>();
  job->promise = self->make_response_promise();
  job->trees.resize(plan.size());
  job->outstanding = plan.size();
  if (plan.empty()) {
    finish_round(self, job);
    return;
  }
  const StateView view{&st.scheduler};
  size_t index = 0;
  for (const auto& [tree, names] : plan) {
    TreeQueues queues;
    for (const auto& n : names) queues.queues.emplace_back(n, st.queues.at(n));
    // await: the router takes no other message (no apply) until every tree has answered.
    self->request(st.trees.at(tree), caf::infinite, decide_atom::value, view, std::move(queues))
        .await(
            [self, job, index](DecisionList& part) {
              job->trees[index] = std::move(part.decisions);
              if (--job->outstanding == 0) finish_round(self, job);
            },
            [self, job](caf::error& err) {
              if (!job->failure) job->failure = std::move(err);
              if (--job->outstanding == 0) finish_round(self, job);
            });
    ++index;
  }
}

}  // namespace

caf::behavior router(Self* self, Scheduler initial, uint64_t applied_seq, LatencyObserver observe_latency) {
  self->state.scheduler = std::move(initial);
  self->state.applied_seq = applied_seq;
  self->state.observe_latency = std::move(observe_latency);
  refresh_quotas(self);
  return {
      [self](apply_atom, const RecordBatch& batch) {
        auto& st = self->state;
        ApplyReport report;
        for (const auto& record : *batch.records) {
          if (record.seq() <= st.applied_seq) continue;  // already folded (restart, duplicate delivery)
          if (Status s = apply_record(st.scheduler, record); !s.ok()) {
            report.error = s.message();
            break;
          }
          st.applied_seq = record.seq();
        }
        refresh_quotas(self);
        report.applied_seq = st.applied_seq;
        return report;
      },
      [self](decide_atom) { decide_round(self); },
      [self](deadline_atom) {
        ApplyReport report;
        report.applied_seq = self->state.applied_seq;
        report.next_deadline = self->state.scheduler.next_deadline();
        return report;
      },
      [self](inspect_atom, const StateProbe& probe) { probe.read(self->state.scheduler, self->state.applied_seq); },
      [self](get_atom, const std::string& quota) {
        auto promise = self->make_response_promise<QuotaView>();
        auto it = self->state.quotas.find(quota);
        if (it == self->state.quotas.end()) {
          promise.deliver(caf::make_error(caf::sec::invalid_argument, "no such quota"));
          return promise;
        }
        self->request(it->second, caf::infinite, get_atom::value)
            .then([promise](QuotaView& view) mutable { promise.deliver(std::move(view)); },
                  [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
        return promise;
      },
  };
}

}  // namespace koordq::actors::runtime
