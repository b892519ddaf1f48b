#include "kube/client/retry_policy.hpp"

#include <algorithm>
#include <charconv>

namespace koordq::kube {

const char* verb_name(Verb verb) {
  switch (verb) {
    case Verb::kGet:
      return "GET";
    case Verb::kPost:
      return "POST";
    case Verb::kPut:
      return "PUT";
    case Verb::kPatch:
      return "PATCH";
    case Verb::kDelete:
      return "DELETE";
  }
  return "GET";
}

bool is_repeatable(Verb verb, bool has_precondition) {
  switch (verb) {
    case Verb::kGet:
    case Verb::kPut:
    case Verb::kDelete:
      return true;
    case Verb::kPatch:
      return has_precondition;
    case Verb::kPost:
      return false;
  }
  return false;
}

bool is_retryable_status(int status) {
  return status == 429 || (status >= 500 && status <= 599);
}

std::optional<std::chrono::seconds> parse_retry_after(std::string_view value) {
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  if (value.empty() || value.size() > 9) return std::nullopt;
  int seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec != std::errc() || end != value.data() + value.size() || seconds < 0) return std::nullopt;
  return std::chrono::seconds(seconds);
}

std::optional<std::chrono::milliseconds> retry_delay(const RetryPolicy& policy, Verb verb, bool has_precondition,
                                                     int attempt, const AttemptOutcome& outcome, double jitter) {
  if (attempt >= policy.max_attempts || !is_repeatable(verb, has_precondition)) return std::nullopt;
  if (outcome.status && !is_retryable_status(*outcome.status)) return std::nullopt;
  if (outcome.status && outcome.retry_after) {
    return std::chrono::milliseconds(std::min(*outcome.retry_after, policy.max_retry_after));
  }
  return backoff_delay(attempt, policy.base_delay, policy.max_delay, jitter);
}

std::chrono::milliseconds backoff_delay(int failures, std::chrono::milliseconds base_delay,
                                        std::chrono::milliseconds max_delay, double jitter) {
  std::chrono::milliseconds full = max_delay;
  if (failures >= 1 && failures - 1 < 30) {
    full = std::min(max_delay, base_delay * (int64_t{1} << (failures - 1)));
  }
  jitter = std::clamp(jitter, 0.0, 1.0);
  return std::chrono::milliseconds(full.count() / 2 + static_cast<int64_t>(jitter * (full.count() - full.count() / 2)));
}

}  // namespace koordq::kube
