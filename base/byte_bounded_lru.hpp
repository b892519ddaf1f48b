// A least-recently-used map bounded by the bytes its entries are counted with, not by their
// number: a cache of answers whose sizes span five orders of magnitude (a 200-byte page, a 20 MB
// one) holds as many as fit. The caller says what an entry costs, so the bound covers what the
// caller keeps alive (its value and its key). Not thread-safe: the caller locks.
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <unordered_map>
#include <utility>

namespace koordq::base {

template <class Key, class Value, class Hash = std::hash<Key>>
class ByteBoundedLru {
 public:
  explicit ByteBoundedLru(size_t max_bytes) : max_bytes_(max_bytes) {}

  // The value of `key`, now the most recently used; nullptr when absent.
  const Value* find(const Key& key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return &it->second->value;
  }

  // Keeps `value` under `key` counted as `bytes`, evicting the least recently used entries until
  // the total fits; an entry that alone exceeds the bound is not kept (false). An existing entry
  // of `key` is replaced.
  bool insert(Key key, Value value, size_t bytes) {
    erase(key);
    if (bytes > max_bytes_) return false;
    while (bytes_ + bytes > max_bytes_) evict_oldest();
    order_.push_front(Entry{key, std::move(value), bytes});
    index_.emplace(std::move(key), order_.begin());
    bytes_ += bytes;
    return true;
  }

  void erase(const Key& key) {
    const auto it = index_.find(key);
    if (it == index_.end()) return;
    bytes_ -= it->second->bytes;
    order_.erase(it->second);
    index_.erase(it);
  }

  size_t bytes() const { return bytes_; }
  size_t size() const { return index_.size(); }
  size_t max_bytes() const { return max_bytes_; }

 private:
  struct Entry {
    Key key;
    Value value;
    size_t bytes = 0;
  };

  void evict_oldest() {
    const Entry& oldest = order_.back();
    bytes_ -= oldest.bytes;
    index_.erase(oldest.key);
    order_.pop_back();
  }

  const size_t max_bytes_;
  size_t bytes_ = 0;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;
};

}  // namespace koordq::base
