// Access decisions by SubjectAccessReview body, as k8s.io/apiserver's delegating authorizer keeps
// them (behaviour.md §16.8): an allowed and a denied decision alike are reused for their
// time to live (10 s), then asked again; at most `capacity` entries, the least recently used
// dropped first. Errors are never kept. Safe across threads.
#pragma once

#include <chrono>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "api/subject_access_review.hpp"

namespace koordq::api {

class AuthorizationCache {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr std::chrono::seconds kDefaultTtl{10};
  static constexpr size_t kDefaultCapacity = 4096;

  explicit AuthorizationCache(size_t capacity = kDefaultCapacity, std::chrono::nanoseconds ttl = kDefaultTtl)
      : capacity_(capacity), ttl_(ttl) {}

  // The decision stored for `key` less than the time to live before `now`.
  std::optional<AccessDecision> find(const std::string& key, Clock::time_point now);
  void store(const std::string& key, AccessDecision decision, Clock::time_point now);
  size_t size() const;

 private:
  struct Entry {
    AccessDecision decision;
    Clock::time_point stored;
    std::list<std::string>::iterator position;
  };

  const size_t capacity_;
  const std::chrono::nanoseconds ttl_;
  mutable std::mutex mu_;
  std::list<std::string> order_;  // most recently used first
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace koordq::api
