// Rendered answers by (revision, request key): the state of a revision never changes, so an answer
// rendered once is served again byte for byte. The key names only what changes the answer (the
// caller builds it from the parsed request, so parameters the endpoint ignores and spellings of
// the same value share an entry). Bounded in bytes (bodies, keys and their bookkeeping), least
// recently used first out; safe across threads.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/lru_cache.hpp"

namespace koordq::api {

class ResponseCache {
 public:
  static constexpr size_t kDefaultMaxBytes = size_t{64} << 20;
  // What an entry costs besides its body and key: list and hash nodes, the shared body's control
  // block.
  static constexpr size_t kEntryOverhead = 160;

  explicit ResponseCache(size_t max_bytes = kDefaultMaxBytes) : max_bytes_(max_bytes), entries_(max_bytes) {}

  std::shared_ptr<const std::string> find(uint64_t revision, const std::string& key) {
    std::lock_guard lock(mu_);
    const auto* body = entries_.get(cache_key(revision, key));
    return body != nullptr ? *body : nullptr;
  }

  void store(uint64_t revision, const std::string& key, std::shared_ptr<const std::string> body) {
    std::string k = cache_key(revision, key);
    // The key is held twice (the recency list and the index).
    const size_t bytes = body->size() + 2 * k.size() + kEntryOverhead;
    if (bytes > max_bytes_) return;  // an answer larger than the whole cache is not kept
    std::vector<std::shared_ptr<const std::string>> evicted;
    std::lock_guard lock(mu_);
    evicted = entries_.put(k, std::move(body), bytes);
  }

  size_t bytes() const {
    std::lock_guard lock(mu_);
    return entries_.cost();
  }
  size_t entries() const {
    std::lock_guard lock(mu_);
    return entries_.size();
  }

 private:
  static std::string cache_key(uint64_t revision, const std::string& key) {
    return std::to_string(revision) + ' ' + key;
  }

  const size_t max_bytes_;
  mutable std::mutex mu_;
  base::LruCache<std::string, std::shared_ptr<const std::string>> entries_;
};

}  // namespace koordq::api
