# One journal entry (design.md §2). Fields are only ever added (Cap'n Proto rules): a reader
# accepts every older minor version and every newer one of the same major version.
#
# Optional values follow model.capnp: `x :union { absent @a :Void; value @b :T; }`, absent by
# default, so that "not set" and "set to zero/empty" stay distinct.

@0xe6f5abe6d7f9a39f;

using Cxx = import "/capnp/c++.capnp";
using Model = import "model.capnp";
$Cxx.namespace("koordq::wire");

# The schema version this binary writes; a journal stores it in its `config` record.
# Minor: fields were added. Major: an incompatible change; older binaries refuse the journal.
const schemaMajor :UInt16 = 1;
const schemaMinor :UInt16 = 0;

struct Record {
  seq @0 :UInt64;       # dense, from 1
  time @1 :Int64;       # ns since the epoch, non-decreasing in seq order
  prevHash @2 :Data;    # SHA-256; for seq 1, SHA-256 of the journal UUID
  hash @3 :Data;        # SHA-256(prevHash ‖ canonical encoding of this record with hash unset)
  body :union {
    config @4 :Config;
    role @5 :Role;
    relist @6 :Relist;
    watch @7 :Watch;
    tick @8 :Void;      # only `time`
    round @9 :Round;
    outcome @10 :Outcome;
  }
}

# --- config: appended by `serve` at start ------------------------------------------------------

struct Config {
  flags @0 :List(Flag);               # every `serve` flag with its effective value, sorted by name
  binaryVersion @1 :Text;
  binaryRevision @2 :Text;
  decisionLogicVersion @3 :UInt32;
  journalUuid @4 :Text;
  schemaMajor @5 :UInt16;
  schemaMinor @6 :UInt16;
  # Set in the first record of a journal started by --journal-on-corruption=quarantine (§21).
  quarantinedJournal :union {
    absent @7 :Void;
    value @8 :QuarantinedJournal;
  }
  pluginConfig @9 :Text;              # plugin configuration as given, "" when none
}

struct Flag {
  name @0 :Text;                      # without the leading dashes
  value @1 :Text;
}

struct QuarantinedJournal {
  path @0 :Text;                      # where the corrupt journal was moved
  lastIntactSeq @1 :UInt64;
  headHash @2 :Data;                  # hash of record lastIntactSeq
}

# --- role: leader election (§19) -------------------------------------------------------------

struct Role {
  enum Event {
    acquired @0;
    lost @1;
  }
  event @0 :Event;
  identity @1 :Text;                  # this replica's Lease identity
  leaseTransitions @2 :Int32;         # the Lease's spec.leaseTransitions
}

# --- relist: one relist epoch of one resource (design.md §7) --------------------------------

enum Resource {
  queueUnits @0;
  queues @1;
  elasticQuotas @2;
}

struct Relist {
  enum Phase {
    begin @0;
    end @1;
  }
  phase @0 :Phase;
  resource @1 :Resource;
  resourceVersion @2 :Text;           # of the LIST
}

# --- watch: one watch event, or one DELETED synthesised by a relist epoch -------------------

struct Watch {
  enum EventType {
    added @0;
    modified @1;
    deleted @2;
    bookmark @3;
  }
  enum RawMode {
    off @0;
    redacted @1;
    full @2;
  }
  eventType @0 :EventType;
  objectKind @1 :Model.ObjectKind;
  namespace @2 :Text;
  name @3 :Text;
  uid @4 :Text;
  resourceVersion @5 :Text;
  object @6 :Model.WatchedObject;     # the normalized object; `none` for a BOOKMARK
  rawJson @7 :Text;                   # as received, per rawMode (--journal-raw-objects, §21); "" when off
  rawMode @8 :RawMode;
  synthesized @9 :Bool;               # a DELETED synthesised by a relist epoch
}

# --- round: the decisions of one decide round (design.md §3) --------------------------------

struct Round {
  basis @0 :UInt64;                   # seq of the last input applied before deciding
  decisions @1 :List(Decision);       # in canonical order; possibly empty
}

struct UnitRef {
  namespace @0 :Text;
  name @1 :Text;
  uid @2 :Text;
  quota @3 :Text;                     # the quota the unit maps to (§4)
  queue @4 :Text;                     # the queue deciding about it
}

struct QueueRef {
  name @0 :Text;                      # in the queue namespace
}

struct Target {
  union {
    unit @0 :UnitRef;
    queue @1 :QueueRef;
  }
}

struct Decision {
  # Enumerants are only ever appended; a reader must expect values it does not know.
  enum Kind {
    admit @0;                         # §7.3, to Dequeued (or a top-up)
    reserve @1;                       # §7.3 + §10, to Reserved
    fail @2;                          # §7.5
    preempt @3;                       # §11, victims marked
    reclaimObserved @4;               # §11, a victim gave its replicas back
    queueNotFound @5;                 # §4
    addQueueFail @6;                  # §6.6
    deactivated @7;                   # §12
    maxExecExceeded @8;               # §12
    publishQueueItems @9;             # §14.1
    admissionChecksReady @10;         # §10, Reserved → Dequeued
    admissionCheckFailed @11;         # §10, Reserved → TimeoutBackoff
    invalidRefreshInterval @12;       # §14.1
    queueCreate @13;                  # §2.5
    queuePatch @14;                   # §2.5
    queueDelete @15;                  # §2.5
    queueUsageAnnotations @16;        # §14.3
    phaseEvent @17;                   # §13.1, the event for an observed SchedSucceed / SchedFailed
    admissionChecksUpdated @18;       # §10, a Reserved unit's checks follow its Queue's (no verdict yet)
    specQueueRepair @19;              # §7.3, an admitted unit's spec.queue written again (its write was lost)
    invalidQuantities @20;            # §3.1, a unit whose quantities are not valid waits: reported
  }

  target @0 :Target;
  kind @1 :Kind;
  reason @2 :Text;                    # the text the decision is explained with (status message, event text, log)

  # The writes the decision implies, carried out by the leader once the round is durable. Each
  # write's answer comes back as an `outcome` naming it by Outcome.WriteKind and writeIndex.
  statusPatch :union {
    absent @3 :Void;
    value @4 :UnitStatusPatch;        # merge-PATCH of the unit's status (§7.3)
  }
  specQueuePatch :union {
    absent @5 :Void;
    value @6 :Text;                   # merge-PATCH {"spec":{"queue":<value>}} (§7.3)
  }
  events @7 :List(KubeEvent);         # core/v1 Events to record (§13)
  queueWrite :union {
    absent @8 :Void;
    value @9 :QueueWrite;             # to the target Queue
  }
  victims @10 :List(Victim);          # preempt: the units marked, in selection order (§11)
  quotaCheck @11 :List(QuotaCheckStep);  # the quota check as evaluated, for explain (§24.2)
}

# The status keys one merge-PATCH sets (§7.3): `absent` keys are not in the body. Lists are
# complete (a merge-PATCH replaces them whole).
struct UnitStatusPatch {
  resourceVersion @0 :Text;           # precondition: metadata.resourceVersion as observed
  phase :union {
    absent @1 :Void;
    value @2 :Text;
  }
  message :union {
    absent @3 :Void;
    value @4 :Text;
  }
  attempts :union {
    absent @5 :Void;
    value @6 :Int64;
  }
  lastUpdateTime :union {
    absent @7 :Void;
    value @8 :Int64;                  # ns since the epoch
  }
  lastAllocateTime :union {
    absent @9 :Void;
    value @10 :Int64;
  }
  admissions :union {
    absent @11 :Void;
    value @12 :List(Model.Admission);
  }
  admissionChecks :union {
    absent @13 :Void;
    value @14 :List(Model.AdmissionCheckState);
  }
}

struct ObjectRef {
  kind @0 :Text;
  apiVersion @1 :Text;
  namespace @2 :Text;
  name @3 :Text;
  uid @4 :Text;
}

struct KubeEvent {
  enum Type {
    normal @0;
    warning @1;
  }
  involvedObject @0 :ObjectRef;
  type @1 :Type;
  reason @2 :Text;
  message @3 :Text;
}

struct QueueWrite {
  union {
    queueItemDetails @0 :Model.QueueItemDetails;  # merge-PATCH of status.queueItemDetails (§14.1)
    usageAnnotations @1 :List(Model.StringEntry); # merge-PATCH of the usage annotations, compact JSON values (§14.3)
    create @2 :Model.Queue;                       # POST of an auto-created Queue (§2.5)
    patch @3 :QueuePatch;                         # merge-PATCH of the items copied from the quota (§2.5)
    delete @4 :Void;                              # DELETE (§2.5)
  }
}

struct QueuePatch {
  queuePolicy :union {
    absent @0 :Void;
    value @1 :Text;
  }
  labels @2 :List(MapPatchEntry);
  annotations @3 :List(MapPatchEntry);
}

# One key of a merge-PATCH of a string map: set it, or remove it (JSON null).
struct MapPatchEntry {
  key @0 :Text;
  union {
    remove @1 :Void;
    set @2 :Text;
  }
}

struct Victim {
  unit @0 :UnitRef;
  replicas @1 :Int64;                 # replicas marked for reclaim, summed over its admissions
}

# One resource at one level of the quota path (§8.2), in internal units.
struct QuotaCheckStep {
  quota @0 :Text;
  resource @1 :Text;
  used @2 :Int64;
  request @3 :Int64;
  limit @4 :Int64;                    # ⌊max × oversellrate⌋
  pass @5 :Bool;                      # used + request ≤ limit
}

# --- outcome: the API server's answer to one write of one decision -------------------------

struct Outcome {
  enum Result {
    success @0;
    conflict @1;
    notFound @2;
    error @3;
    unknown @4;                       # synthesised at start for a write that never got an answer
  }
  enum WriteKind {
    statusPatch @0;
    specQueuePatch @1;
    queueWrite @2;
    event @3;
  }
  decisionSeq @0 :UInt64;             # seq of the round record
  decisionIndex @1 :UInt32;           # position of the decision in Round.decisions
  writeIndex @2 :UInt32;              # position among the decision's writes of writeKind (events: in Decision.events; else 0)
  result @3 :Result;
  httpCode @4 :Int32;                 # 0 when there was no HTTP answer
  message @5 :Text;
  resourceVersion @6 :Text;           # of the written object, when the answer carries one
  writeKind @7 :WriteKind;
  target @8 :Target;                  # copy of the decision's target, so readers can filter without a lookup
}
