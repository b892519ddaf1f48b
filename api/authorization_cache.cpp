#include "api/authorization_cache.hpp"

namespace koordq::api {

std::optional<AccessDecision> AuthorizationCache::find(const std::string& key, Clock::time_point now) {
  std::lock_guard lock(mu_);
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  if (now - it->second.stored >= ttl_) {
    order_.erase(it->second.position);
    entries_.erase(it);
    return std::nullopt;
  }
  order_.splice(order_.begin(), order_, it->second.position);
  return it->second.decision;
}

void AuthorizationCache::store(const std::string& key, AccessDecision decision, Clock::time_point now) {
  if (capacity_ == 0) return;
  std::lock_guard lock(mu_);
  if (const auto it = entries_.find(key); it != entries_.end()) {
    it->second.decision = std::move(decision);
    it->second.stored = now;
    order_.splice(order_.begin(), order_, it->second.position);
    return;
  }
  while (entries_.size() >= capacity_) {
    entries_.erase(order_.back());
    order_.pop_back();
  }
  order_.push_front(key);
  entries_.emplace(key, Entry{std::move(decision), now, order_.begin()});
}

size_t AuthorizationCache::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace koordq::api
