#include "kube/events/event_correlator.hpp"

#include <algorithm>
#include <utility>

namespace koordq::kube {
namespace {

constexpr char kSeparator = '\x1f';  // cannot occur in Kubernetes names, kinds or uids

void append_part(std::string& key, const std::string& part) {
  key += part;
  key += kSeparator;
}

}  // namespace

EventCorrelator::EventCorrelator(std::string source_component, std::string reporting_instance,
                                 CorrelatorSettings settings)
    : source_component_(std::move(source_component)),
      reporting_instance_(std::move(reporting_instance)),
      settings_(settings),
      aggregates_(settings.cache_size),
      observations_(settings.cache_size),
      buckets_(settings.cache_size) {}

// Source and involved object: the rate limit's key (client-go getSpamKey).
std::string EventCorrelator::object_key(const actors::ObjectRef& involved) const {
  std::string key;
  append_part(key, source_component_);
  append_part(key, involved.kind);
  append_part(key, involved.namespace_);
  append_part(key, involved.name);
  append_part(key, involved.uid);
  append_part(key, involved.api_version);
  return key;
}

// Everything but the message (client-go EventAggregatorByReasonFunc).
std::string EventCorrelator::aggregate_key(const EventFacts& event) const {
  std::string key = object_key(event.involved);
  append_part(key, event.type);
  append_part(key, event.reason);
  append_part(key, source_component_);
  append_part(key, reporting_instance_);
  return key;
}

// Everything (client-go getEventKey).
std::string EventCorrelator::full_key(const EventFacts& event) const {
  std::string key = object_key(event.involved);
  append_part(key, event.type);
  append_part(key, event.reason);
  append_part(key, event.message);
  return key;
}

bool EventCorrelator::take_token(const std::string& key, int64_t now) {
  base::TokenBucket* bucket = buckets_.get(key);
  if (bucket == nullptr) {
    const auto interval = std::chrono::duration_cast<std::chrono::nanoseconds>(settings_.token_interval).count();
    buckets_.put(key, base::TokenBucket(settings_.burst, static_cast<double>(interval), now));
    bucket = buckets_.get(key);
  }
  return bucket->try_take(now);
}

CorrelatedEvent EventCorrelator::correlate(const EventFacts& event, int64_t now) {
  // Aggregation.
  const std::string group = aggregate_key(event);
  Aggregate aggregate;
  if (const Aggregate* cached = aggregates_.get(group)) aggregate = *cached;
  const auto window = std::chrono::duration_cast<std::chrono::nanoseconds>(settings_.aggregate_interval).count();
  if (!aggregate.seen || now - aggregate.last_timestamp > window) aggregate = Aggregate{};
  const bool new_message = aggregate.messages.insert(event.message).second;
  aggregate.seen = true;
  aggregate.last_timestamp = now;
  const bool combine = aggregate.messages.size() >= settings_.aggregate_max_events;
  if (combine && new_message) aggregate.messages.erase(event.message);
  aggregates_.put(group, aggregate);

  CorrelatedEvent out;
  out.aggregated = combine;
  out.name = event.name;
  out.message = combine ? "(combined from similar events): " + event.message : event.message;
  out.first_timestamp = now;
  out.last_timestamp = now;

  // Deduplication: the combined event counts under the aggregation key.
  const std::string key = combine ? group : full_key(event);
  if (const Observation* last = observations_.get(key); last != nullptr && last->count > 0) {
    out.update = true;
    out.name = last->name;
    out.first_timestamp = last->first_timestamp;
    out.count = last->count + 1;
  }
  observations_.put(key, Observation{out.count, out.first_timestamp, out.name});

  // Rate limit.
  out.skip = !take_token(object_key(event.involved), now);
  return out;
}

void EventCorrelator::update_state(const EventFacts& written, int32_t count, int64_t first_timestamp) {
  observations_.put(full_key(written), Observation{count, first_timestamp, written.name});
}

}  // namespace koordq::kube
