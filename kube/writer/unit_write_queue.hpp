// The per-process QueueUnit write queue of behaviour.md §7.6, as pure logic (time passed in):
//  * at most one pending write per unit, the newer replacing the older (latest wins);
//  * writes that change phase, admissions or admission checks go before message-only writes,
//    each class in the order it was queued;
//  * a failure write is sent at most once per backoff period: after one is sent, the unit's next
//    failure write is held until that backoff has elapsed (held writes coalesce); a write of the
//    other class replaces a held one at once;
//  * a write waiting for a retry (429, 5xx, timeout) can still be replaced;
//  * a spec.queue patch is never lost to a replacement: a newer write without one takes it over
//    (with the address of the decision that made it);
//  * a unit's failure hold is forgotten once it has passed (pruned whenever the queue is used with
//    a time), so units deleted meanwhile leave nothing behind.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

#include "actors/core/decision.hpp"
#include "schema/queue_unit.hpp"

namespace koordq::kube {

struct UnitWrite {
  actors::UnitRef unit;
  uint64_t decision_seq = 0;  // the round record
  uint32_t decision_index = 0;
  std::optional<actors::StatusPatch> status;
  std::optional<std::string> spec_queue;
  // The unit's resourceVersion as the decision saw it (after koordq's own landed writes): the
  // spec.queue patch's precondition when no status write of this write precedes it.
  std::string resource_version;
  uint64_t spec_queue_seq = 0;  // the decision spec_queue came from (a replaced write's, taken over)
  uint32_t spec_queue_index = 0;
  bool changes_phase = false;  // sets phase, admissions or admissionChecks
  bool failure = false;        // a failure write (§7.5)
  int64_t backoff_ns = 0;      // the unit's backoff duration at the decision, for failure writes
  // The object as the decision saw it: a 409 repeats the write only while the fresh object is
  // still in this phase (a waiting unit still waits) with this spec and these labels (§7.3).
  std::string observed_phase;
  schema::QueueUnitSpec observed_spec;
  schema::StringMap observed_labels;
};

std::string unit_write_key(const UnitWrite& write);  // "<ns>/<name>"

class UnitWriteQueue {
 public:
  void push(UnitWrite write, int64_t now);
  // The next write to send at `now`, removed from the queue.
  std::optional<UnitWrite> pop(int64_t now);
  // A popped write to send again at `at`, unless a newer write for the unit was queued meanwhile.
  void retry_at(UnitWrite write, int64_t at);
  // A failure write was sent at `now`: the unit's next failure write waits until now + backoff.
  void failure_sent(const std::string& key, int64_t now, int64_t backoff_ns);
  // When pop() next has something (≤ now: at once); std::nullopt when empty.
  std::optional<int64_t> next_due() const;
  size_t size() const { return pending_.size(); }
  // Units whose next failure write is still held back (a hold that has passed is dropped).
  size_t failure_holds() const { return failure_hold_until_.size(); }
  void clear();

 private:
  struct Entry {
    UnitWrite write;
    uint64_t order = 0;
    int64_t not_before = 0;
  };
  void enqueue(const std::string& key, Entry entry);
  void unlink(const std::string& key);
  void drop_hold(const std::string& key);
  void prune_holds(int64_t now);

  std::map<std::string, Entry> pending_;                     // by unit key
  std::set<std::tuple<int, uint64_t, std::string>> ready_;   // (class, order, key), sendable now
  std::set<std::pair<int64_t, std::string>> delayed_;        // (not_before, key): held or retrying
  std::map<std::string, int64_t> failure_hold_until_;        // by unit key
  std::set<std::pair<int64_t, std::string>> holds_by_time_;  // the same holds, by their end
  uint64_t next_order_ = 0;
};

}  // namespace koordq::kube
