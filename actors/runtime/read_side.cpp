#include "actors/runtime/read_side.hpp"

#include <algorithm>
#include <utility>

#include "actors/wire/record_apply.hpp"
#include "base/log.hpp"

namespace koordq::actors::runtime {

ReadSide::ReadSide(const Scheduler& initial, uint64_t revision) : shared_(std::make_shared<Shared>()) {
  for (Replica& replica : shared_->replicas) {
    replica.state = initial;
    replica.revision = revision;
  }
  publish(0);
  thread_ = std::thread([this] { run(); });
}

ReadSide::~ReadSide() {
  {
    std::lock_guard lock(shared_->mu);
    shared_->stopping = true;
  }
  shared_->changed.notify_all();
  thread_.join();
  std::shared_ptr<const PublishedState> last;
  {
    std::lock_guard lock(shared_->mu);
    last = std::move(shared_->latest);  // its release refers to shared_: no cycle left behind
  }
}

void ReadSide::applied(AppliedRecords records, uint64_t applied) {
  {
    std::lock_guard lock(shared_->mu);
    shared_->incoming.push_back({std::move(records), applied, 0});
  }
  shared_->changed.notify_all();
}

std::shared_ptr<const PublishedState> ReadSide::latest() const {
  std::lock_guard lock(shared_->mu);
  return shared_->latest;
}

bool ReadSide::wait_published(uint64_t revision) {
  std::unique_lock lock(shared_->mu);
  shared_->changed.wait(lock, [&] { return shared_->stopping || shared_->latest->revision >= revision; });
  return shared_->latest->revision >= revision;
}

// The replica at `index` becomes the latest; the previous one is free again once the publication
// and every reader of it let go.
void ReadSide::publish(size_t index) {
  Replica& replica = shared_->replicas[index];
  std::shared_ptr<const PublishedState> state(new PublishedState{&replica.state, replica.revision},
                                              [shared = shared_, index](const PublishedState* p) {
                                                delete p;
                                                {
                                                  std::lock_guard lock(shared->mu);
                                                  shared->replicas[index].read = false;
                                                }
                                                shared->changed.notify_all();
                                              });
  std::shared_ptr<const PublishedState> previous;
  {
    std::lock_guard lock(shared_->mu);
    replica.read = true;
    previous = std::exchange(shared_->latest, std::move(state));
  }
  published_index_ = index;
  shared_->changed.notify_all();
  // `previous` is released here, outside the lock its release takes.
}

// The same loop as the router's fold: records at or below the replica's seq are skipped, the
// fold stops at the router's seq, and at a record that does not apply (which the router then
// refused too).
void ReadSide::fold(Replica& replica, const Pending& batch) {
  for (const auto& record : *batch.records) {
    if (record.seq() <= replica.revision) continue;
    if (record.seq() > batch.applied) break;
    if (Status s = apply_record(replica.state, record); !s.ok()) {
      KQ_LOG_ERROR("read side: {}", s.message());
      break;
    }
    replica.revision = record.seq();
  }
  replica.folded = batch.number;
}

void ReadSide::run() {
  uint64_t received = 0;
  for (;;) {
    const size_t target = 1 - published_index_;
    {
      std::unique_lock lock(shared_->mu);
      shared_->changed.wait(lock, [&] { return shared_->stopping || !shared_->incoming.empty(); });
      // Then for the replica nobody reads any more; batches arriving meanwhile go in with these.
      shared_->changed.wait(lock, [&] { return shared_->stopping || !shared_->replicas[target].read; });
      if (shared_->stopping) return;
      for (Pending& batch : shared_->incoming) {
        batch.number = ++received;
        backlog_.push_back(std::move(batch));
      }
      shared_->incoming.clear();
    }
    Replica& replica = shared_->replicas[target];
    for (const Pending& batch : backlog_) {
      if (batch.number > replica.folded) fold(replica, batch);
    }
    publish(target);
    const uint64_t both = std::min(shared_->replicas[0].folded, shared_->replicas[1].folded);
    while (!backlog_.empty() && backlog_.front().number <= both) backlog_.pop_front();
  }
}

}  // namespace koordq::actors::runtime
