// A map of at most `capacity` entries that forgets the least recently used one when full, as the
// LRU caches of client-go's event correlator do: get() and put() both count as a use.
#pragma once

#include <cstddef>
#include <list>
#include <unordered_map>
#include <utility>

namespace koordq::kube {

template <class Key, class Value, class Hash = std::hash<Key>>
class LruCache {
 public:
  explicit LruCache(size_t capacity) : capacity_(capacity == 0 ? 1 : capacity) {}

  // The entry for `key`, made the most recently used; nullptr when absent.
  Value* get(const Key& key) {
    auto found = index_.find(key);
    if (found == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, found->second);
    return &found->second->second;
  }

  void put(const Key& key, Value value) {
    if (Value* existing = get(key)) {
      *existing = std::move(value);
      return;
    }
    if (index_.size() == capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    order_.emplace_front(key, std::move(value));
    index_.emplace(key, order_.begin());
  }

  size_t size() const { return index_.size(); }

 private:
  size_t capacity_;
  std::list<std::pair<Key, Value>> order_;  // most recently used first
  std::unordered_map<Key, typename std::list<std::pair<Key, Value>>::iterator, Hash> index_;
};

}  // namespace koordq::kube
