#include "cmd/cluster_inbox.hpp"

#include <utility>

#include "base/log.hpp"

namespace koordq::cmd {

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
  LoopInput in;
  in.kind = LoopInput::Kind::kWatch;
  in.resource = resource.kind;
  in.event = std::move(event);
  inbox_.push(std::move(in));
}

void InboxSink::on_problem(const kube::WatchedResource& resource, const std::string& message) {
  KQ_LOG_WARNING("{}: {}", resource.describe(), message);
}

}  // namespace koordq::cmd
