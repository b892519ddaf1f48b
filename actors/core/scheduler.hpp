// The decision logic (design.md §3–§4, behaviour.md §4–§14): the whole state koordq derives from
// its journal, `apply` for every record kind, and `decide` for one round. Plain C++: no CAF, no
// clock, no I/O; "now" is the time of the last applied record. Replay, time travel, verification
// and the unit tests call it directly; the actors are thin shells around it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "actors/core/boxed_optional.hpp"
#include "actors/core/decision.hpp"
#include "actors/core/decision_config.hpp"
#include "actors/core/fold_changes.hpp"
#include "actors/core/order_key.hpp"
#include "actors/core/queue_settings.hpp"
#include "actors/core/quota_tree.hpp"
#include "actors/core/unit_facts.hpp"
#include "schema/watched_object.hpp"

namespace koordq::actors {

enum class OutcomeResult { kSuccess, kConflict, kNotFound, kError, kUnknown };
enum class WriteKind { kStatusPatch, kSpecQueuePatch, kQueueWrite, kEvent };

// The answer to one write of one decision (design.md §2, `outcome`).
struct Outcome {
  uint64_t decision_seq = 0;
  uint32_t decision_index = 0;
  WriteKind write_kind = WriteKind::kStatusPatch;
  uint32_t write_index = 0;
  OutcomeResult result = OutcomeResult::kSuccess;
  int32_t http_code = 0;
  std::string resource_version;
  Target target;
};

// UnitState::indexed_in: the unit is in its queue's `members`, `housekeeping`, `not_waiting`,
// `backoff` set.
inline constexpr uint8_t kInMembers = 1, kInHousekeeping = 2, kInNotWaiting = 4, kInBackoff = 8;

struct QueueState;

struct UnitState {
  schema::QueueUnit object;  // as last observed
  // The status koordq decided (applied round) but has not yet seen through the watch: the
  // reservation counts from the decision on (behaviour.md §7.3). Both statuses are rarely set
  // and kept out of line (a waiting unit has neither).
  BoxedOptional<schema::QueueUnitStatus> pending_status;
  std::string pending_written_rv;  // resourceVersion the successful write produced
  uint64_t pending_decision_seq = 0;
  // The last status a successful write put on the server, while a newer write is in flight, and
  // the resourceVersion it produced: a failed newer write falls back to it.
  BoxedOptional<schema::QueueUnitStatus> landed_status;
  std::string landed_rv;

  // Derived from the effective object (object + pending status).
  std::string quota;
  Phase phase = Phase::kEnqueued;
  bool holds = false;
  schema::ResourceVector charge;
  bool waiting = false;  // §5.2 (incl. mapped)
  bool assumed = false;  // §5.2, in the queue it maps to
  OrderKey key;

  // Leader state (reset when this replica acquires the lease).
  int64_t failures = 0;
  std::optional<int64_t> backoff_until;
  int64_t attempts = 0;  // attempts counted; status.attempts may lag (§9)
  // Whether a capacity change of its queue's quota met the unit waiting since its last attempt
  // (Block step 3): this flag, or, while the unit waits in its queue, a change of that queue after
  // `capacity_seen` (capacity_changed_since_attempt()). A release of quota so marks every waiting
  // unit of its queues in O(1).
  bool capacity_changed = false;

  // Journaled bookkeeping.
  std::optional<int64_t> unmapped_since;
  bool queue_not_found_reported = false;
  int64_t enqueued_at = 0;               // creation, or last re-entry into Enqueued (admission wait)
  bool dequeued_once = false;            // first Dequeued written (e2e latency)
  bool deactivation_due = false;         // spec.active became false, not yet signalled (§12)
  std::optional<int64_t> running_since;  // applied transition into Running (§12)
  bool max_exec_reported = false;
  std::optional<Phase> phase_event_due;     // SchedSucceed / SchedFailed observed (§13.1)
  Phase observed_phase = Phase::kEnqueued;  // effective phase of the observed object (§15.2 coming rate)
  // The spec.queue this leader decided to write and has not yet seen on the object, and the round
  // that decided it: while set, no other spec.queue write is decided for the unit (§7.3).
  std::string spec_queue_sent;
  uint64_t spec_queue_sent_seq = 0;
  // §3.1: the invalid quantities (invalid_quantities()) of a unit that would otherwise wait in its
  // queue, which keep it from waiting; and the text last reported for it (journaled).
  std::string invalid_quantities;
  std::string invalid_reported;

  // Derived, not snapshotted (rebuilt on restore): which of its queue's sets hold the unit
  // (kIn* bits), kept with every change of those sets, so that a refresh searches a set only when
  // the unit's place in it changes.
  uint8_t indexed_in = 0;
  // Derived like `indexed_in`: the queue named by `quota` while it exists (the unit is mapped),
  // else nullptr, so that a refresh that keeps the quota finds its queue without a search.
  // Scheduler's copy points it at the copy's own queues.
  QueueState* queue = nullptr;
  // Derived: the Scheduler's count of capacity changes when `capacity_changed` was last brought
  // up to date (a restore starts every count at 0).
  uint64_t capacity_seen = 0;

  bool capacity_changed_since_attempt() const;
  const schema::QueueUnitStatus& status() const { return pending_status ? *pending_status : object.status; }
};

// Whether a round could have housekeeping for the unit (deactivation, maximum execution time,
// phase event, admission checks): the time-independent part of those conditions.
bool may_have_housekeeping(const UnitState& u);
// A unit with a maximum execution time, running, whose excess is not yet reported (§12).
bool pending_execution_limit(const UnitState& u);
// A labelled unit without its queue whose queue-not-found report is still pending (§4).
bool pending_queue_not_found(const UnitState& u);
// An admitted unit whose observed spec.queue is not its queue, with no spec.queue write of this
// leader out for it: the write of its admission was lost (a restart, a failover, a failed status
// write before it), so a round writes it again (§7.3).
bool owes_spec_queue(const UnitState& u);
// A unit kept from waiting by invalid quantities whose report (status message and Warning event)
// is still due (§3.1).
bool pending_invalid_report(const UnitState& u);

struct QueueState {
  schema::Queue object;
  QueueSettings settings;
  std::set<OrderKey> waiting;
  std::optional<OrderKey> cursor;  // std::nullopt: head
  int64_t last_reset = 0;
  std::optional<int64_t> last_attempt;
  std::string last_tried;                         // unit key tried last (Block step 3)
  int64_t last_activity = 0;                      // last candidate or admission (Block 3-minute clear)
  std::set<std::string> members;                  // units mapped to this queue
  std::map<std::string, std::string> blocked;     // quota → blocker unit key
  std::map<std::string, int64_t> victims;         // preemption round: unit key → replicas marked (§11)
  std::set<std::string> add_queue_fail_reported;  // "<uid>/<policy>"
  std::set<std::string> invalid_interval_reported;
  std::optional<schema::QueueItemDetails> last_published;
  std::optional<int64_t> next_publish;
  // §14.3: the usage annotations last decided (std::nullopt: compare with the object's), the
  // earliest time of the next usage write, and the decision whose write is the latest one.
  std::optional<UsageAnnotations> usage_written;
  int64_t usage_next = 0;
  uint64_t usage_seq = 0;
  uint32_t usage_index = 0;
  // Derived, not snapshotted (rebuilt on restore): the members a round may have unit
  // housekeeping for (`may_have_housekeeping`); a round visits these and the victims only.
  std::set<std::string> housekeeping;
  // Derived like `housekeeping`: the members that do not wait (running, finished, assumed…), so
  // that a visibility page reaches them without walking every member.
  std::set<std::string> not_waiting;
  // Derived like `housekeeping`: the members with a backoff time set, which a queue that may move
  // on clears (`wake_queue`) without walking every member.
  std::set<std::string> backoff;
  // Derived like `housekeeping`: this queue's entry in Scheduler::queue_timers().
  std::optional<int64_t> timer;
  // Derived, kept by the round index (scheduler_wake.cpp): whether a round at the current time
  // may decide something for the queue, the next time that could change without an input, and
  // whether an input reached the queue since they were worked out.
  mutable bool awake = true;
  mutable std::optional<int64_t> recheck;
  mutable bool stirred = false;
  // Derived for the round index: (backoff end, unit key) of units that backed off in this queue or
  // entered its waiting set backing off, earliest first, so that the earliest backoff end of its
  // waiting units is a search, not a walk over them. Entries are not removed when a unit wakes,
  // leaves or backs off again: the earliest one that no longer holds, or has passed, is dropped
  // when the index reads it (Scheduler::earliest_backoff_end).
  mutable std::set<std::pair<int64_t, std::string>> backoff_ends;
  // Derived, not snapshotted: the Scheduler's count of capacity changes at the last one of this
  // queue's quota (0: none since the state was made or restored). See UnitState::capacity_seen.
  uint64_t last_capacity_change = 0;
};

inline bool UnitState::capacity_changed_since_attempt() const {
  return capacity_changed || (waiting && queue != nullptr && queue->last_capacity_change > capacity_seen);
}

// §2.5: the three items of a quota koordq carries onto its Queue.
struct QueueItems {
  std::string queue_policy;           // Priority, Block, Intelligent or Round
  std::optional<std::string> parent;  // label quota.scheduling.koordinator.sh/parent
  std::optional<std::string> enable;  // annotation quota-koord-queue-enable

  bool operator==(const QueueItems&) const = default;
};

// §2.5 bookkeeping per quota name (journaled): the items the Queue was created with, adopted at
// or last patched to, and the create / patch / delete whose write has not been answered yet.
struct AutoQueue {
  std::optional<QueueItems> synced;  // std::nullopt: no Queue created or adopted
  std::optional<DecisionKind> in_flight;
  uint64_t in_flight_seq = 0;
  uint32_t in_flight_index = 0;
  std::optional<QueueItems> before;  // `synced` before the in-flight write; restored when it fails

  bool operator==(const AutoQueue&) const = default;
};

// A histogram of integer observations (nanoseconds) with fixed upper bounds (§15.3).
struct Histogram {
  std::vector<int64_t> bounds;   // upper bounds, ascending; +Inf implicit
  std::vector<uint64_t> counts;  // per bucket, not cumulative; counts[bounds.size()] is +Inf
  uint64_t count = 0;
  int64_t sum = 0;  // Σ observations, same unit as bounds

  void observe(int64_t value);
  uint64_t cumulative(size_t bucket) const;  // observations ≤ bounds[bucket] (bucket == size: all)
  bool operator==(const Histogram&) const = default;
};

// The journaled metric state of §15.4: counters and histograms that resume after a restart and
// that replay does not count twice. Updated only while records are applied.
struct QueueingMetrics {
  // queueunits_coming_rate_by_job_type: (namespace, type, status) → count.
  std::map<std::tuple<std::string, std::string, std::string>, uint64_t> coming;
  // job_schedule_attempts: (queue, result) → count; result "scheduled" or "unschedulable".
  std::map<std::pair<std::string, std::string>, uint64_t> attempts;
  // koordq_admission_wait_seconds by queue, in nanoseconds (bounds 1 s, 2.5 s × 2ᵏ).
  std::map<std::string, Histogram> admission_wait;
  // job_scheduling_e2e_latency, in nanoseconds (bounds 1 ms × 4ᵏ).
  Histogram e2e_latency = e2e_histogram();
  // Namespaces without any QueueUnit, since when: their series go after 5 minutes (§15.4).
  std::map<std::string, int64_t> namespace_empty_since;

  static Histogram admission_wait_histogram();
  static Histogram e2e_histogram();
  bool operator==(const QueueingMetrics&) const = default;
};

// What a quota tree's round has decided so far: a later queue of the tree sees the earlier queues'
// tentative reservations (design.md §3, behaviour.md §7.1). Trees never share quota, so each tree
// starts from an empty one and trees can decide in parallel.
struct TreeRound {
  std::map<std::string, schema::ResourceVector> tentative;  // by quota label
  std::set<std::string> decided;                            // units with a decision this round
  std::set<std::string> admitted;                           // units admitted this round
  std::set<std::string> spec_queue_repaired;                // units whose spec.queue a repair writes
};

// Told of each quota check of an attempt (§7.2), so that the actor shell can time it for
// job_scheduling_algorithm_latency: the decision logic itself reads no clock.
class QuotaCheckObserver {
 public:
  virtual ~QuotaCheckObserver() = default;
  virtual void before_check() = 0;
  virtual void after_check() = 0;
};

// Units by "<ns>/<name>", queues by name (the queue namespace only).
using UnitMap = std::map<std::string, UnitState>;
using QueueMap = std::map<std::string, QueueState>;

class Scheduler {
 public:
  explicit Scheduler(DecisionConfig config = {}) : config_(std::move(config)) {}
  // A copy points its units' queue pointers (UnitState::queue) at its own queues; a move keeps the
  // map nodes, so the pointers stay valid.
  Scheduler(const Scheduler& other);
  Scheduler& operator=(const Scheduler& other);
  Scheduler(Scheduler&&) noexcept = default;
  Scheduler& operator=(Scheduler&&) noexcept = default;

  // Every record advances "now" first (timers fire deterministically), then applies its content.
  void advance_to(int64_t now);
  void apply_object(const schema::WatchedObject& object, bool deleted);
  void apply_object(schema::WatchedObject&& object, bool deleted);  // moves the object into the state
  void apply_outcome(const Outcome& outcome);
  void apply_role_acquired();
  // A `config` record: a process starts appending here; objects first seen in a later relist are
  // counted as entering their phase only if created after the record before it (§15.4).
  void apply_config();
  // A `relist` record's begin or end for one watched resource.
  void apply_relist(schema::ObjectKind resource, bool begin);
  void apply_round(uint64_t round_seq, const std::vector<Decision>& decisions);
  // The same, moving what it keeps out of the decisions.
  void apply_round(uint64_t round_seq, std::vector<Decision>&& decisions);

  // The decisions of one round at the current time (leader only): the trees' decisions in
  // tree-name order, then the unmapped units'. Equal to composing the three parts below, which
  // the round coordinators run in parallel.
  std::vector<Decision> decide() const;
  // Quota tree → its queues in name order.
  std::map<std::string, std::vector<std::string>> round_trees() const;
  std::vector<Decision> decide_tree(const std::vector<std::string>& queues) const;
  void decide_queue(const std::string& queue, TreeRound& round, std::vector<Decision>& out,
                    QuotaCheckObserver* observer = nullptr) const;
  std::vector<Decision> decide_unmapped() const;
  // The earliest time a round could decide something it cannot decide now.
  std::optional<int64_t> next_deadline() const;
  // From now on, every change applying records makes to units and queues is noted in `changes`
  // (nullptr: none, the default). A copy of the state notes nothing.
  void note_changes(FoldChanges* changes) { changes_ = changes; }
  // The queues a round at the current time may decide something for, in name order; a round
  // visits only these (every other queue would decide nothing). round_trees(), decide(),
  // decide_unmapped() and next_deadline() bring the index up to date first, so none of them may
  // run on one Scheduler at the same time as another (decide_queue may, on different queues).
  const std::set<std::string>& awake_queues() const;
  // The unit a round's attempt in `q` would try, given the units already decided in the round.
  const UnitState* round_candidate(const QueueState& q, const std::set<std::string>& decided) const;
  // Bumped whenever a Queue's settings may have changed (a Queue created, changed or deleted).
  uint64_t settings_version() const { return settings_version_; }

  int64_t now() const { return now_; }
  const DecisionConfig& config() const { return config_; }
  const UnitMap& units() const { return units_; }
  const QueueMap& queues() const { return queues_; }
  const QuotaTree& quotas() const { return quotas_; }
  const std::map<std::string, AutoQueue>& auto_queues() const { return auto_queues_; }
  const QueueingMetrics& metrics() const { return metrics_; }
  std::optional<int64_t> relist_cutoff() const { return relist_cutoff_; }
  bool relisting_units() const { return relisting_units_; }
  int64_t previous_now() const { return previous_now_; }
  // §2.5: the items a quota asks its Queue to carry; §14.3: the usage annotations of a quota.
  static QueueItems queue_items_of(const QuotaInfo& quota);
  // queue_items_of(quota) == items, without building them.
  static bool has_queue_items(const QuotaInfo& quota, const QueueItems& items);
  UsageAnnotations usage_annotations(const std::string& quota) const;
  // Whether koordq keeps the Queue `name` (auto-created or adopted, quota known): §14.3.
  bool manages_queue(const std::string& name) const;
  bool is_active(const UnitState& u) const { return !u.backoff_until || *u.backoff_until <= now_; }
  // Derived, not snapshotted (rebuilt on restore): (time, queue) for every queue with a timer
  // `advance_to` acts on (cursor reset, queue-items publication, block expiry), at the earliest.
  const std::set<std::pair<int64_t, std::string>>& queue_timers() const { return queue_timers_; }
  // Derived like the queue timers: the units whose queue-not-found report is pending (§4), and
  // the running units with a maximum execution time not yet reported exceeded (§12).
  const std::set<std::string>& unmapped_pending() const { return unmapped_pending_; }
  const std::set<std::string>& execution_limited() const { return execution_limited_; }

 private:
  template <class Decisions>
  void apply_decisions(uint64_t round_seq, Decisions& decisions);
  // One decision of a round (`D`: a const Decision, or a mutable one whose writes may move).
  template <class D>
  void apply_queue_decision(uint64_t round_seq, uint32_t index, const QueueRef& ref, D& d);
  template <class D>
  void apply_unit_decision(uint64_t round_seq, const UnitRef& ref, D& d);
  // An admission or reservation, and a failed attempt, of unit `key` on `q` (which may be null).
  void apply_attempt(UnitState& u, const std::string& key, const Decision& d, QueueState* q, Phase phase_before,
                     int64_t enqueued_at);
  void apply_failed_attempt(UnitState& u, const std::string& key, const Decision& d, QueueState* q);
  void refresh_unit(const std::string& key, bool spec_changed);
  // apply_object by kind: a QueueUnit (moved into the state), its deletion, a Queue.
  void apply_unit_object(schema::QueueUnit& unit, bool deleted);
  void forget_unit(UnitMap::iterator it, const std::string& key, const std::string& ns);
  void apply_queue_object(const schema::Queue& queue, bool deleted);
  // The same, for a unit already in hand (`u` is units_[key]): no second search by key.
  void refresh_unit(UnitState& u, const std::string& key, bool spec_changed);
  // The parts of refresh_unit after the unit's own fields are derived (scheduler_refresh.cpp).
  struct UnitChange;
  void move_in_queues(UnitState& u, const std::string& key, const UnitChange& change);
  void note_unit_change(UnitState& u, bool spec_changed, const UnitChange& change);
  void place_unit(UnitState& u, const std::string& key, const UnitChange& change);
  void remove_from_queue(const std::string& queue, const OrderKey& key);
  void reset_cursor(QueueState& q);
  // Sets or clears a unit's backoff time, and its queue's `backoff` set with it.
  void back_off(UnitState& u, int64_t until);
  void wake_backoff(UnitState& u);
  void wake_queue(QueueState& q);
  // `refreshing`: the unit refresh_unit is working on, if any.
  void on_capacity_change(const std::string& quota, UnitState* refreshing = nullptr);
  // The unit's capacity_changed flag set to `changed` and counted from now on.
  void settle_capacity_change(UnitState& u, bool changed) const;
  QueueState* queue_of(const UnitState& u);
  void adopt_queue(const std::string& name);
  void settle_auto_queue(const std::string& name);
  void count_phase(const UnitState& u, Phase phase);
  void note_namespace(const std::string& ns, bool has_units);
  // The derived indexes, from the journaled state (after a snapshot restore). False when a queue
  // lists a member that is no unit.
  bool rebuild_indexes();
  // Puts a member of `q` in the queue's derived sets it belongs in (`insert(set, key)`).
  template <class Insert>
  void index_member(QueueState& q, const std::string& key, UnitState& u, const Insert& insert);
  // Puts the unit in or out of the unit indexes (`unmapped_pending_`, `execution_limited_`).
  void index_unit(const std::string& key, const UnitState& u);
  // UnitState::queue of every unit from its quota (after a copy or a restore).
  void repoint_units();
  // Puts the queue's entry in `queue_timers_` in line with its state (or drops it).
  void retime_queue(const std::string& name);
  void retime_queue(QueueState& q, const std::string& name);  // `q` is queues_[name]
  // The Queue writes of an earlier leader or process: compared with the objects again.
  void forget_queue_writes();

  // The round index (scheduler_wake.cpp). An input that may change what a round decides for a
  // queue stirs it; the index works out stirred queues again (and those whose recheck time
  // passed) before a round or a deadline is asked for.
  void stir(const QueueState& q) const;
  void stir_queue(const std::string& name);
  // The queues of a quota label's path: their usage annotations follow the label's charges.
  void stir_usage_path(const std::string& label);
  void stir_all() {
    stir_all_ = true;
    auto_queues_quiet_ = false;
  }
  // The §2.5 pass over every quota must look again (a quota, Queue or auto-queue entry changed).
  void stir_auto_queues() { auto_queues_quiet_ = false; }
  void settle_rounds() const;
  struct QueueWake {
    bool awake = false;
    std::optional<int64_t> next;  // later than now
  };
  QueueWake queue_wake(const std::string& name, const QueueState& q) const;
  // The earliest backoff end after now of the units waiting in `q` (from q.backoff_ends).
  std::optional<int64_t> earliest_backoff_end(const QueueState& q) const;
  void rewake(const std::string& name, const QueueState& q) const;

  friend class StateSnapshotCodec;  // actors/wire/state_snapshot.cpp: snapshot and restore

  // Every member below is copied by the copy constructor (scheduler_apply.cpp).
  DecisionConfig config_;
  int64_t now_ = 0;
  UnitMap units_;
  QueueMap queues_;
  QuotaTree quotas_;
  std::map<std::string, AutoQueue> auto_queues_;  // by quota (= Queue) name
  QueueingMetrics metrics_;
  int64_t previous_now_ = 0;  // "now" before the last advance
  std::optional<int64_t> relist_cutoff_;
  bool relisting_units_ = false;
  std::set<std::pair<int64_t, std::string>> queue_timers_;
  std::set<std::string> unmapped_pending_;
  std::set<std::string> execution_limited_;
  uint64_t settings_version_ = 0;
  uint64_t capacity_changes_ = 0;  // on_capacity_change calls that reached a queue (derived)
  // The round index: not copied (a copy works it out again from its own queues).
  mutable bool stir_all_ = true;
  mutable std::vector<const QueueState*> stirred_;
  mutable std::set<std::string> awake_;
  mutable std::set<std::pair<int64_t, std::string>> rechecks_;
  // The last §2.5 pass decided nothing and nothing it reads has changed since.
  mutable bool auto_queues_quiet_ = false;
  // Where changes are noted (note_changes); not copied.
  FoldChanges* changes_ = nullptr;
};

// Whether two Queue objects differ in anything but koordq's own writes (usage annotations,
// queueItemDetails, resourceVersion): §14.3.
bool queue_changed(const schema::Queue& before, const schema::Queue& after);
// The usage annotations the Queue carries as far as koordq knows: the last ones it decided, else
// the six keys present on the observed object.
UsageAnnotations usage_on_queue(const QueueState& q);

std::string unit_key(const std::string& ns, const std::string& name);

// §14.2: the waiting units of the queue in order, split into active and backoff, each list capped
// at --queue-items-max; units in `leaving` (admitted by the round being built) are left out.
schema::QueueItemDetails queue_item_details(const Scheduler& s, const QueueState& q,
                                            const std::set<std::string>* leaving = nullptr);

}  // namespace koordq::actors
