#include "controller/cluster_inbox.hpp"

#include <utility>

#include "base/log.hpp"

namespace koordq::controller {

void ClusterInbox::push(LoopInput input) {
  {
    std::lock_guard lock(mu_);
    inputs_.push_back(std::move(input));
  }
  cv_.notify_one();
}

std::vector<LoopInput> ClusterInbox::take(std::chrono::nanoseconds wait) {
  std::unique_lock lock(mu_);
  cv_.wait_for(lock, wait, [this] { return !inputs_.empty() || woken_; });
  woken_ = false;
  std::vector<LoopInput> out;
  out.reserve(inputs_.size());
  for (auto& in : inputs_) out.push_back(std::move(in));
  inputs_.clear();
  return out;
}

void ClusterInbox::wake() {
  {
    std::lock_guard lock(mu_);
    woken_ = true;
  }
  cv_.notify_one();
}

void ClusterInbox::start_clock(actors::runtime::DecisionEngine& engine, actors::runtime::TickPolicy policy) {
  clock_ = std::make_unique<actors::runtime::Clock>(engine, policy,
                                                    actors::runtime::ClockHooks{wall_now_, [this](int64_t) {
                                                                                  LoopInput in;
                                                                                  in.kind = LoopInput::Kind::kTick;
                                                                                  push(std::move(in));
                                                                                }});
}

void ClusterInbox::arm_clock(std::optional<int64_t> deadline, int64_t seen_through) {
  if (clock_) clock_->arm(deadline, seen_through);
}

void InboxSink::on_relist(const kube::WatchedResource& resource, kube::ListSnapshot list) {
  for (const auto& rejected : list.rejected) {
    KQ_LOG_ERROR("{}: an item of the LIST does not decode and is left out: {}", resource.describe(), rejected.error);
  }
  LoopInput in;
  in.kind = LoopInput::Kind::kRelist;
  in.resource = resource.kind;
  in.list = std::move(list);
  inbox_.push(std::move(in));
}

void InboxSink::on_event(const kube::WatchedResource& resource, schema::WatchEvent event) {
  inbox_.push(LoopInput{.kind = LoopInput::Kind::kWatch, .resource = resource.kind, .event = std::move(event)});
}

void InboxSink::on_problem(const kube::WatchedResource& resource, const std::string& message) {
  KQ_LOG_WARNING("{}: {}", resource.describe(), message);
}

}  // namespace koordq::controller
