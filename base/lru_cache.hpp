// A map that keeps the most recently used entries within a capacity and forgets the least
// recently used ones beyond it, as client-go's LRU caches do: get() and put() both count as a use.
// Each entry costs 1 unless put() says otherwise, so the capacity bounds the number of entries
// (the event correlator's caches, the rendered answers of the live APIs) or their estimated bytes
// (the reconstructed states of time travel). Not safe across threads: a shared cache is guarded
// by its owner's lock.
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace koordq::base {

template <class Key, class Value, class Hash = std::hash<Key>>
class LruCache {
 public:
  explicit LruCache(size_t capacity) : capacity_(capacity) {}

  // The entry for `key`, made the most recently used; nullptr when absent.
  Value* get(const Key& key) {
    const auto found = index_.find(key);
    if (found == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, found->second);
    return &found->second->value;
  }

  bool contains(const Key& key) const { return index_.count(key) != 0; }

  // Puts `value` under `key` (replacing what was there) as the most recently used entry, then
  // forgets the least recently used others while the total cost exceeds the capacity: the entry
  // just put always stays. Returns what was forgotten, so a caller can free it outside its lock.
  std::vector<Value> put(const Key& key, Value value, size_t cost = 1) {
    std::vector<Value> evicted;
    if (const auto found = index_.find(key); found != index_.end()) {
      order_.splice(order_.begin(), order_, found->second);
      Entry& entry = *found->second;
      evicted.push_back(std::exchange(entry.value, std::move(value)));
      cost_ = cost_ - entry.cost + cost;
      entry.cost = cost;
    } else {
      order_.push_front(Entry{key, std::move(value), cost});
      index_.emplace(key, order_.begin());
      cost_ += cost;
    }
    while (cost_ > capacity_ && order_.size() > 1) {
      Entry& oldest = order_.back();
      cost_ -= oldest.cost;
      evicted.push_back(std::move(oldest.value));
      index_.erase(oldest.key);
      order_.pop_back();
    }
    return evicted;
  }

  // Removes the entry for `key` and hands its value over; std::nullopt when absent.
  std::optional<Value> take(const Key& key) {
    const auto found = index_.find(key);
    if (found == index_.end()) return std::nullopt;
    std::optional<Value> value(std::move(found->second->value));
    cost_ -= found->second->cost;
    order_.erase(found->second);
    index_.erase(found);
    return value;
  }

  size_t size() const { return index_.size(); }
  // The summed cost of the entries kept.
  size_t cost() const { return cost_; }

 private:
  struct Entry {
    Key key;
    Value value;
    size_t cost;
  };

  size_t capacity_;
  size_t cost_ = 0;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;
};

}  // namespace koordq::base
