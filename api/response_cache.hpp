// Rendered answers by (revision, request target): the state of a revision never changes, so an
// answer rendered once is served again byte for byte. A small LRU, safe across threads.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace koordq::api {

class ResponseCache {
 public:
  explicit ResponseCache(size_t max_entries = 512, size_t max_body_bytes = 4u << 20)
      : max_entries_(max_entries), max_body_bytes_(max_body_bytes) {}

  std::shared_ptr<const std::string> find(uint64_t revision, const std::string& target) {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key(revision, target));
    if (it == entries_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second.position);
    return it->second.body;
  }

  void store(uint64_t revision, const std::string& target, std::shared_ptr<const std::string> body) {
    if (body->size() > max_body_bytes_ || max_entries_ == 0) return;
    std::lock_guard lock(mu_);
    std::string k = key(revision, target);
    if (entries_.count(k)) return;
    while (entries_.size() >= max_entries_) {
      entries_.erase(order_.back());
      order_.pop_back();
    }
    order_.push_front(k);
    entries_.emplace(std::move(k), Entry{std::move(body), order_.begin()});
  }

 private:
  static std::string key(uint64_t revision, const std::string& target) {
    return std::to_string(revision) + ' ' + target;
  }
  struct Entry {
    std::shared_ptr<const std::string> body;
    std::list<std::string>::iterator position;
  };
  const size_t max_entries_;
  const size_t max_body_bytes_;
  std::mutex mu_;
  std::list<std::string> order_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace koordq::api
