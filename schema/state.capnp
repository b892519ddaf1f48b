# The payloads of a decision-state snapshot's parts (snapshot.capnp, Snapshot.Part): the whole
# koordq::actors::Scheduler, field for field, so that a restored state equals the replayed one
# exactly. Derived fields are stored as they are, never recomputed on restore.
#
# Parts (design.md §5), each payload one canonical Cap'n Proto message (one segment, no table):
#   "router"         RouterPart: now, the decision configuration, the units in no queue's part
#   "queue/<name>"   QueuePart: one QueueState and the units whose quota label names that queue
#   "quota/<name>"   QuotaPart: the ElasticQuota objects of that name and the accounting of that
#                    name or label (labels without a quota are charged too, behaviour.md §8.3)
#
# Conventions follow model.capnp: optionals are `absent`/`value` unions, maps and sets are lists
# in the C++ containers' order (bytewise by key), times are Int64 ns since the epoch.
# Fields are only ever added (design.md §2).

@0xca21cf4e066fa572;

using Cxx = import "/capnp/c++.capnp";
using Model = import "model.capnp";
$Cxx.namespace("koordq::wire::state");

# One entry of a ResourceVector: resource name → internal integer (behaviour.md §3.3).
struct ResourceAmount {
  name @0 :Text;
  amount @1 :Int64;
}

struct CountEntry {
  key @0 :Text;
  value @1 :Int64;
}

# The queue order key (actors/core/order_key.hpp).
struct OrderKey {
  priority @0 :Int32;
  creation @1 :Int64;
  fullName @2 :Text;
}

# Same order as actors::Phase.
enum Phase {
  enqueued @0;
  reserved @1;
  dequeued @2;
  running @3;
  succeed @4;
  failed @5;
  timeoutBackoff @6;
  schedReady @7;
  schedSucceed @8;
  schedFailed @9;
}

# actors::UnitState.
struct UnitState {
  key @0 :Text;                       # "<namespace>/<name>", its key in the state
  object @1 :Model.QueueUnit;
  pendingStatus :union {
    absent @2 :Void;
    value @3 :Model.QueueUnitStatus;
  }
  pendingWrittenRv @4 :Text;
  pendingDecisionSeq @5 :UInt64;
  landedStatus :union {
    absent @6 :Void;
    value @7 :Model.QueueUnitStatus;
  }
  landedRv @8 :Text;

  # Derived from the effective object when it was last refreshed.
  quota @9 :Text;
  phase @10 :Phase;
  holds @11 :Bool;
  charge @12 :List(ResourceAmount);
  waiting @13 :Bool;
  assumed @14 :Bool;
  orderKey @15 :OrderKey;

  # Leader state.
  failures @16 :Int64;
  backoffUntil :union {
    absent @17 :Void;
    value @18 :Int64;
  }
  attempts @19 :Int64;
  capacityChanged @20 :Bool;

  # Journaled bookkeeping.
  unmappedSince :union {
    absent @21 :Void;
    value @22 :Int64;
  }
  queueNotFoundReported @23 :Bool;
  enqueuedAt @24 :Int64;
  dequeuedOnce @25 :Bool;
  deactivationDue @26 :Bool;
  runningSince :union {
    absent @27 :Void;
    value @28 :Int64;
  }
  maxExecReported @29 :Bool;
  phaseEventDue :union {
    absent @30 :Void;
    value @31 :Phase;
  }
  observedPhase @32 :Phase;           # of the observed object (§15.2 coming rate)
  specQueueSent @33 :Text;            # a spec.queue write decided and not yet observed (§7.3)
  specQueueSentSeq @34 :UInt64;
  invalidQuantities @35 :Text;        # derived: §3.1, what keeps the unit from waiting
  invalidReported @36 :Text;          # the invalid quantities last reported
}

# actors::DecisionConfig: the state was folded under it; a restore under another one is refused.
struct DecisionConfig {
  oversellRatePpm @0 :Int64;
  initialBackoffNanos @1 :Int64;
  maxBackoffNanos @2 :Int64;
  scheduleSuspendNanos @3 :Int64;
  reclaimProtectNanos @4 :Int64;
  queueNamespace @5 :Text;
  queueItemsMax @6 :Int64;
}

struct RouterPart {
  now @0 :Int64;
  config @1 :DecisionConfig;
  units @2 :List(UnitState);          # units whose quota label names no queue, by key
  autoQueues @3 :List(AutoQueue);     # by quota name
  metrics @4 :QueueingMetrics;
  previousNow @5 :Int64;
  relistCutoff :union {
    absent @6 :Void;
    value @7 :Int64;
  }
  relistingUnits @8 :Bool;
}

# actors::QueueItems (behaviour.md §2.5).
struct QueueItems {
  queuePolicy @0 :Text;
  parent :union {
    absent @1 :Void;
    value @2 :Text;
  }
  enable :union {
    absent @3 :Void;
    value @4 :Text;
  }
}

# actors::AutoQueue, with its quota (= Queue) name.
struct AutoQueue {
  name @0 :Text;
  synced :union {
    absent @1 :Void;
    value @2 :QueueItems;
  }
  inFlight :union {
    absent @3 :Void;
    value @4 :UInt16;                 # actors::DecisionKind
  }
  inFlightSeq @5 :UInt64;
  inFlightIndex @6 :UInt32;
  before :union {
    absent @7 :Void;
    value @8 :QueueItems;
  }
}

# actors::Histogram.
struct Histogram {
  bounds @0 :List(Int64);
  counts @1 :List(UInt64);
  count @2 :UInt64;
  sum @3 :Int64;
}

struct ComingEntry {
  namespace @0 :Text;
  type @1 :Text;
  status @2 :Text;
  count @3 :UInt64;
}

struct AttemptEntry {
  queue @0 :Text;
  result @1 :Text;
  count @2 :UInt64;
}

struct HistogramEntry {
  key @0 :Text;
  histogram @1 :Histogram;
}

# actors::QueueingMetrics (behaviour.md §15.4), maps in key order.
struct QueueingMetrics {
  coming @0 :List(ComingEntry);
  attempts @1 :List(AttemptEntry);
  admissionWait @2 :List(HistogramEntry);
  e2eLatency @3 :Histogram;
  namespaceEmptySince @4 :List(CountEntry);
}

# Same order as actors::QueuePolicy.
enum QueuePolicy {
  priority @0;
  block @1;
  unsupported @2;
}

# actors::QueueSettings.
struct QueueSettings {
  policy @0 :QueuePolicy;
  policyText @1 :Text;
  maxDepth @2 :Int64;
  waitForPodsRunning @3 :Bool;
  preemptionEnabled @4 :Bool;
  refreshIntervalNanos @5 :Int64;
  invalidRefreshInterval :union {
    absent @6 :Void;
    value @7 :Text;
  }
  showQueueItems @8 :Bool;
}

# actors::QueueState, and its units.
struct QueuePart {
  name @0 :Text;                      # its key in the state
  object @1 :Model.Queue;
  settings @2 :QueueSettings;
  waiting @3 :List(OrderKey);         # in queue order
  cursor :union {
    head @4 :Void;
    value @5 :OrderKey;
  }
  lastReset @6 :Int64;
  lastAttempt :union {
    absent @7 :Void;
    value @8 :Int64;
  }
  lastTried @9 :Text;
  lastActivity @10 :Int64;
  members @11 :List(Text);
  blocked @12 :List(Model.StringEntry);   # quota → blocker unit key
  victims @13 :List(CountEntry);          # unit key → replicas marked
  addQueueFailReported @14 :List(Text);
  invalidIntervalReported @15 :List(Text);
  lastPublished :union {
    absent @16 :Void;
    value @17 :Model.QueueItemDetails;
  }
  nextPublish :union {
    absent @18 :Void;
    value @19 :Int64;
  }
  units @20 :List(UnitState);         # units whose quota label names this queue, by key
  usageWritten :union {
    absent @21 :Void;
    value @22 :List(Model.StringEntry);
  }
  usageNext @23 :Int64;
  usageSeq @24 :UInt64;
  usageIndex @25 :UInt32;
}

# actors::QuotaInfo, one observed ElasticQuota object.
struct QuotaObject {
  namespaceKey @0 :Text;              # its key among the objects of its name
  object @1 :Model.ElasticQuota;
  name @2 :Text;
  namespace @3 :Text;
  uid @4 :Text;
  creation @5 :Int64;
  parent @6 :Text;
  queuePolicy @7 :Text;
  enableAnnotation :union {
    absent @8 :Void;
    value @9 :Text;
  }
  maxRaw @10 :List(Model.ResourceEntry);
  minRaw @11 :List(Model.ResourceEntry);
  max @12 :List(ResourceAmount);
  min @13 :List(ResourceAmount);
}

# actors::QuotaUsage.
struct QuotaUsage {
  selfUsed @0 :List(ResourceAmount);
  childrenUsed @1 :List(ResourceAmount);
  used @2 :List(ResourceAmount);
  count @3 :Int64;
}

# Everything the quota tree keeps under one name: the objects of that name (collisions included),
# the usage of the quota, and the charges of units labelled with it. Each is absent when the tree
# has no entry for the name.
struct QuotaPart {
  name @0 :Text;
  objects :union {
    absent @1 :Void;
    value @2 :List(QuotaObject);      # by namespace
  }
  usage :union {
    absent @3 :Void;
    value @4 :QuotaUsage;
  }
  selfUsed :union {
    absent @5 :Void;
    value @6 :List(ResourceAmount);
  }
  selfCount :union {
    absent @7 :Void;
    value @8 :Int64;
  }
}
