#include "kube/writer/unit_write_queue.hpp"

#include <utility>

namespace koordq::kube {

std::string unit_write_key(const UnitWrite& write) {
  return write.unit.namespace_ + "/" + write.unit.name;
}

void UnitWriteQueue::unlink(const std::string& key) {
  auto it = pending_.find(key);
  if (it == pending_.end()) return;
  const Entry& e = it->second;
  ready_.erase({e.write.changes_phase ? 0 : 1, e.order, key});
  delayed_.erase({e.not_before, key});
  pending_.erase(it);
}

void UnitWriteQueue::drop_hold(const std::string& key) {
  auto it = failure_hold_until_.find(key);
  if (it == failure_hold_until_.end()) return;
  holds_by_time_.erase({it->second, key});
  failure_hold_until_.erase(it);
}

void UnitWriteQueue::prune_holds(int64_t now) {
  while (!holds_by_time_.empty() && holds_by_time_.begin()->first <= now) {
    failure_hold_until_.erase(holds_by_time_.begin()->second);
    holds_by_time_.erase(holds_by_time_.begin());
  }
}

namespace {

void take_over_spec_queue(UnitWrite& newer, UnitWrite& older) {
  if (newer.spec_queue || !older.spec_queue || newer.unit.uid != older.unit.uid) return;
  newer.spec_queue = std::move(older.spec_queue);
  newer.spec_queue_seq = older.spec_queue_seq;
  newer.spec_queue_index = older.spec_queue_index;
}

}  // namespace

void UnitWriteQueue::enqueue(const std::string& key, Entry entry) {
  if (entry.not_before > 0) {
    delayed_.insert({entry.not_before, key});
  } else {
    ready_.insert({entry.write.changes_phase ? 0 : 1, entry.order, key});
  }
  pending_[key] = std::move(entry);
}

void UnitWriteQueue::push(UnitWrite write, int64_t now) {
  prune_holds(now);
  const std::string key = unit_write_key(write);
  if (auto old = pending_.find(key); old != pending_.end()) take_over_spec_queue(write, old->second.write);
  unlink(key);
  Entry entry;
  entry.order = next_order_++;
  if (write.failure) {
    if (auto hold = failure_hold_until_.find(key); hold != failure_hold_until_.end()) entry.not_before = hold->second;
  } else {
    drop_hold(key);  // the other class: sent at once, and the limit starts over
  }
  entry.write = std::move(write);
  enqueue(key, std::move(entry));
}

std::optional<UnitWrite> UnitWriteQueue::pop(int64_t now) {
  prune_holds(now);
  while (!delayed_.empty() && delayed_.begin()->first <= now) {
    const std::string key = delayed_.begin()->second;
    delayed_.erase(delayed_.begin());
    Entry& e = pending_.at(key);
    e.not_before = 0;
    ready_.insert({e.write.changes_phase ? 0 : 1, e.order, key});
  }
  if (ready_.empty()) return std::nullopt;
  const std::string key = std::get<2>(*ready_.begin());
  ready_.erase(ready_.begin());
  auto it = pending_.find(key);
  UnitWrite out = std::move(it->second.write);
  pending_.erase(it);
  return out;
}

void UnitWriteQueue::retry_at(UnitWrite write, int64_t at) {
  const std::string key = unit_write_key(write);
  if (auto newer = pending_.find(key); newer != pending_.end()) {
    take_over_spec_queue(newer->second.write, write);
    return;  // replaced meanwhile: the newer write wins
  }
  Entry entry;
  entry.order = next_order_++;
  entry.not_before = at;
  entry.write = std::move(write);
  enqueue(key, std::move(entry));
}

void UnitWriteQueue::failure_sent(const std::string& key, int64_t now, int64_t backoff_ns) {
  prune_holds(now);
  if (backoff_ns <= 0) return;
  drop_hold(key);
  failure_hold_until_[key] = now + backoff_ns;
  holds_by_time_.insert({now + backoff_ns, key});
}

std::optional<int64_t> UnitWriteQueue::next_due() const {
  if (!ready_.empty()) return 0;
  if (!delayed_.empty()) return delayed_.begin()->first;
  return std::nullopt;
}

void UnitWriteQueue::clear() {
  pending_.clear();
  ready_.clear();
  delayed_.clear();
  failure_hold_until_.clear();
  holds_by_time_.clear();
}

}  // namespace koordq::kube
