// Rendered answers by (revision, request target): the state of a revision never changes, so an
// answer rendered once is served again byte for byte. A small LRU, safe across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "base/lru_cache.hpp"

namespace koordq::api {

class ResponseCache {
 public:
  explicit ResponseCache(size_t max_entries = 512, size_t max_body_bytes = 4u << 20)
      : max_entries_(max_entries), max_body_bytes_(max_body_bytes), entries_(max_entries) {}

  std::shared_ptr<const std::string> find(uint64_t revision, const std::string& target) {
    std::lock_guard lock(mu_);
    const auto* body = entries_.get(key(revision, target));
    return body != nullptr ? *body : nullptr;
  }

  void store(uint64_t revision, const std::string& target, std::shared_ptr<const std::string> body) {
    if (body->size() > max_body_bytes_ || max_entries_ == 0) return;
    std::lock_guard lock(mu_);
    std::string k = key(revision, target);
    if (entries_.contains(k)) return;
    entries_.put(k, std::move(body));
  }

 private:
  static std::string key(uint64_t revision, const std::string& target) {
    return std::to_string(revision) + ' ' + target;
  }
  const size_t max_entries_;
  const size_t max_body_bytes_;
  std::mutex mu_;
  base::LruCache<std::string, std::shared_ptr<const std::string>> entries_;
};

}  // namespace koordq::api
