// The correlation client-go's event recorder applies before it writes (behaviour.md §13.2; the
// default EventCorrelator of k8s.io/client-go/tools/record), as pure logic: no I/O, no clock, the
// time of each event passed in. Three stages, each with an LRU cache:
//  * aggregation, keyed by the event without its message: once 10 different messages were seen
//    with no gap over 600 s, an event with a new message becomes one combined event
//    `(combined from similar events): <message>`, counted under the aggregation key;
//  * deduplication, keyed by the full event: the first occurrence is created (count 1), a repeat
//    updates the first one's count and lastTimestamp;
//  * a rate limit per source and involved object: a token bucket (burst 25, one token per 300 s);
//    an event without a token is skipped. As in client-go, it applies after deduplication has
//    counted the event.
// client-go forgets an arbitrary message of the aggregation set when it aggregates; this keeps the
// first nine, so a repeat of one of them stays a repeat of its own event, deterministically.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include "actors/core/decision.hpp"
#include "base/lru_cache.hpp"
#include "base/token_bucket.hpp"

namespace koordq::kube {

struct CorrelatorSettings {
  size_t cache_size = 4096;
  int burst = 25;
  std::chrono::seconds token_interval{300};
  size_t aggregate_max_events = 10;
  std::chrono::seconds aggregate_interval{600};
};

// An event as recorded: the fields that key it, and the name it gets if it is new.
struct EventFacts {
  actors::ObjectRef involved;
  std::string type;  // "Normal" or "Warning"
  std::string reason;
  std::string message;
  std::string name;
};

// What to write for one recorded event.
struct CorrelatedEvent {
  bool skip = false;        // rate-limited: nothing is written
  bool aggregated = false;  // the message is the combined one
  bool update = false;      // a repeat: PATCH the event `name` (count > 1); else POST it
  std::string name;
  std::string message;
  int32_t count = 1;
  int64_t first_timestamp = 0;  // unix nanoseconds
  int64_t last_timestamp = 0;
};

class EventCorrelator {
 public:
  EventCorrelator(std::string source_component, std::string reporting_instance, CorrelatorSettings settings = {});

  // `now`: the event's time, unix nanoseconds (non-decreasing from call to call).
  CorrelatedEvent correlate(const EventFacts& event, int64_t now);

  // After a successful write, what the server holds: the event as written (`written.message` the
  // message sent, `written.name` its name) with the server's count and firstTimestamp.
  void update_state(const EventFacts& written, int32_t count, int64_t first_timestamp);

 private:
  struct Aggregate {
    std::set<std::string> messages;
    int64_t last_timestamp = 0;
    bool seen = false;
  };
  struct Observation {
    int32_t count = 0;
    int64_t first_timestamp = 0;
    std::string name;
  };

  std::string object_key(const actors::ObjectRef& involved) const;
  std::string aggregate_key(const EventFacts& event) const;
  std::string full_key(const EventFacts& event) const;
  bool take_token(const std::string& key, int64_t now);

  std::string source_component_;
  std::string reporting_instance_;
  CorrelatorSettings settings_;
  base::LruCache<std::string, Aggregate> aggregates_;
  base::LruCache<std::string, Observation> observations_;
  base::LruCache<std::string, base::TokenBucket> buckets_;
};

}  // namespace koordq::kube
