#include "actors/runtime/calling_thread_rounds.hpp"

#include <utility>

#include "actors/runtime/decision_log.hpp"
#include "actors/wire/record_apply.hpp"

namespace koordq::actors::runtime {

CallingThreadRounds::CallingThreadRounds(Scheduler initial, uint64_t applied_seq, LatencyObserver observe_latency)
    : scheduler_(std::move(initial)), applied_seq_(applied_seq), observe_latency_(std::move(observe_latency)) {}

ApplyReport CallingThreadRounds::apply(const std::vector<journal::StoredRecord>& records) {
  std::lock_guard lock(mu_);
  ApplyReport report;
  for (const auto& record : records) {
    if (record.seq() <= applied_seq_) continue;  // already folded (restart, duplicate delivery)
    if (Status s = apply_record(scheduler_, record); !s.ok()) {
      report.error = s.message();
      break;
    }
    applied_seq_ = record.seq();
  }
  report.applied_seq = applied_seq_;
  return report;
}

Result<std::vector<Decision>> CallingThreadRounds::decide() {
  std::lock_guard lock(mu_);
  log_changed_queue_settings(scheduler_, queue_settings_);

  std::vector<Decision> out;
  for (const auto& [tree, queues] : scheduler_.round_trees()) {
    TreeRound round;
    for (const auto& name : queues) {
      if (observe_latency_) {
        CheckTimer timer(name, observe_latency_);
        scheduler_.decide_queue(name, round, out, &timer);
      } else {
        scheduler_.decide_queue(name, round, out);
      }
    }
  }
  for (auto& d : scheduler_.decide_unmapped()) out.push_back(std::move(d));
  return out;
}

std::optional<int64_t> CallingThreadRounds::next_deadline() {
  std::lock_guard lock(mu_);
  return scheduler_.next_deadline();
}

void CallingThreadRounds::read(const std::function<void(const Scheduler&, uint64_t)>& read) {
  std::lock_guard lock(mu_);
  read(scheduler_, applied_seq_);
}

std::optional<QuotaView> CallingThreadRounds::quota(const std::string& name) {
  std::lock_guard lock(mu_);
  const QuotaTree& tree = scheduler_.quotas();
  const QuotaInfo* info = tree.find(name);
  if (info == nullptr) return std::nullopt;
  return QuotaView{applied_seq_, *info, tree.tree_of(name), tree.usage(name)};
}

}  // namespace koordq::actors::runtime
