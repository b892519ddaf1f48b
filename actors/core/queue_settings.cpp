#include "actors/core/queue_settings.hpp"

#include <algorithm>
#include <charconv>

#include "base/go_duration.hpp"

namespace koordq::actors {
namespace {

const std::string* annotation(const schema::Queue& q, const std::string& key) {
  const auto it = q.metadata.annotations.find(key);
  return it == q.metadata.annotations.end() ? nullptr : &it->second;
}

bool is_true(const std::string* v) {
  return v != nullptr && *v == "true";
}

using base::kSecond;

}  // namespace

QueueSettings settings_of(const schema::Queue& queue) {
  QueueSettings s;
  s.policy_text = queue.spec.queue_policy;
  if (s.policy_text.empty() || s.policy_text == "Priority") {
    s.policy = QueuePolicy::kPriority;
  } else if (s.policy_text == "Block") {
    s.policy = QueuePolicy::kBlock;
  } else {
    s.policy = QueuePolicy::kUnsupported;
  }
  if (const auto* depth = annotation(queue, "koord-queue/max-depth")) {
    int64_t n = 0;
    const auto [end, ec] = std::from_chars(depth->data(), depth->data() + depth->size(), n);
    if (ec == std::errc() && end == depth->data() + depth->size() && n > 0) s.max_depth = n;
  }
  s.wait_for_pods_running = is_true(annotation(queue, "koord-queue/wait-for-pods-running"));
  s.preemption_enabled =
      s.wait_for_pods_running && is_true(annotation(queue, "koord-queue/enable-queueunit-preemption"));
  if (const auto* interval = annotation(queue, "koord-queue/queue-items-refresh-interval")) {
    auto parsed = base::parse_go_duration(*interval);
    if (parsed.ok() && *parsed > 0) {
      s.refresh_interval_nanos = std::max<int64_t>(*parsed, kSecond);
    } else {
      s.invalid_refresh_interval = *interval;
    }
  }
  s.show_queue_items = annotation(queue, "koord-queue/disable-show-queue-items") == nullptr;
  return s;
}

}  // namespace koordq::actors
