// The election record of a `coordination.k8s.io/v1` Lease as client-go's LeaseLock keeps it
// (holderIdentity, leaseDurationSeconds, acquireTime, renewTime, leaseTransitions), read from the
// API server's JSON and written back; and how long ago a record was first seen, by the observer's
// own clock, which is how client-go judges expiry (behaviour.md §19).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::kube {

struct LeaseRecord {
  std::string holder_identity;
  std::optional<int64_t> lease_duration_seconds;
  std::string acquire_time;  // MicroTime text, `2026-04-20T08:00:00.000000Z`
  std::string renew_time;
  int64_t lease_transitions = 0;

  bool operator==(const LeaseRecord&) const = default;
};

// A Lease as read: its record, its resourceVersion and the whole object (the update sends it back
// with a new spec, so labels, annotations and owner references survive).
struct FetchedLease {
  LeaseRecord record;
  std::string resource_version;
  std::string object;
};

// Errors name what is wrong (`lease: spec.leaseTransitions: expected an integer`).
Result<FetchedLease> parse_lease(std::string_view body);

// A new Lease `namespace/name` holding `record`.
std::string lease_create_body(const std::string& namespace_, const std::string& name, const LeaseRecord& record);
// `fetched_object` (the Lease as read, with its resourceVersion) with `record` as its spec.
Result<std::string> lease_update_body(std::string_view fetched_object, const LeaseRecord& record);

// `/apis/coordination.k8s.io/v1/namespaces/<ns>/leases` and `…/leases/<name>`.
std::string leases_path(const std::string& namespace_);
std::string lease_path(const std::string& namespace_, const std::string& name);

// Kubernetes MicroTime: RFC 3339 UTC with exactly six fraction digits.
std::string format_micro_time(int64_t unix_nanos);

// When the record last changed, by the observer's clock: client-go's observedRecord and
// observedTime. Pure.
class LeaseObservation {
 public:
  // Notes `record` as seen at `now`; the clock restarts only when it differs from the last one.
  void observe(const LeaseRecord& record, int64_t now);
  // Forgets what was seen (the Lease is gone).
  void reset();

  bool seen() const { return record_.has_value(); }
  const LeaseRecord& record() const { return *record_; }
  // Whether the record has stayed unchanged for `duration_nanos` up to `now`.
  bool expired(int64_t now, int64_t duration_nanos) const;

 private:
  std::optional<LeaseRecord> record_;
  int64_t observed_at_ = 0;
};

}  // namespace koordq::kube
