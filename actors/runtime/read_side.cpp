#include "actors/runtime/read_side.hpp"

#include <utility>

#include "actors/runtime/page_maintainer.hpp"
#include "actors/wire/record_apply.hpp"
#include "base/log.hpp"

namespace koordq::actors::runtime {

ReadSide::ReadSide(const Scheduler& initial, uint64_t revision)
    : state_(initial), revision_(revision), maintainer_(std::make_unique<PageMaintainer>(state_, revision)) {
  latest_ = std::make_shared<const pages::ReadPages>(maintainer_->pages());
  thread_ = std::thread([this] { run(); });
}

ReadSide::~ReadSide() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void ReadSide::applied(AppliedRecords records, uint64_t applied) {
  {
    std::lock_guard lock(mu_);
    incoming_.push_back({std::move(records), applied});
  }
  changed_.notify_all();
}

void ReadSide::later(StateTask task) {
  {
    std::lock_guard lock(mu_);
    tasks_.push_back(std::move(task));
  }
  changed_.notify_all();
}

PublishedPages ReadSide::latest() const {
  std::lock_guard lock(mu_);
  return latest_;
}

void ReadSide::read_state(const std::function<void(const Scheduler&, uint64_t)>& read) const {
  std::shared_lock lock(state_mu_);
  read(state_, revision_);
}

bool ReadSide::wait_published(uint64_t revision) {
  std::unique_lock lock(mu_);
  changed_.wait(lock, [&] { return stopping_ || latest_->revision >= revision; });
  return latest_->revision >= revision;
}

// The same loop as the router's fold: records at or below the replica's seq are skipped, the
// fold stops at the router's seq, and at a record that does not apply (which the router then
// refused too).
void ReadSide::fold(const Pending& batch) {
  maintainer_->before_fold(state_, *batch.records, revision_, batch.applied);
  std::unique_lock lock(state_mu_);
  for (const auto& record : *batch.records) {
    if (record.seq() <= revision_) continue;
    if (record.seq() > batch.applied) break;
    if (Status s = apply_record(state_, record); !s.ok()) {
      KQ_LOG_ERROR("read side: {}", s.message());
      break;
    }
    revision_ = record.seq();
  }
}

void ReadSide::run() {
  for (;;) {
    std::deque<Pending> batches;
    std::vector<StateTask> tasks;
    {
      std::unique_lock lock(mu_);
      changed_.wait(lock, [&] { return stopping_ || !incoming_.empty() || !tasks_.empty(); });
      if (stopping_) return;
      batches.swap(incoming_);
      tasks.swap(tasks_);
    }
    if (!batches.empty()) {
      for (const Pending& batch : batches) fold(batch);
      // Only this thread writes the state: it reads it without the lock.
      maintainer_->after_fold(state_, revision_);
      auto published = std::make_shared<const pages::ReadPages>(maintainer_->pages());
      {
        std::lock_guard lock(mu_);
        latest_ = std::move(published);
      }
      changed_.notify_all();
    }
    for (const StateTask& task : tasks) task(state_, revision_);
  }
}

}  // namespace koordq::actors::runtime
