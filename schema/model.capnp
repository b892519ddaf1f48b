# The watched objects as the journal stores them: field for field the C++ model of
# schema/object_meta.hpp, queue_unit.hpp, queue.hpp and elastic_quota.hpp (behaviour.md §2).
#
# Conventions, so that model → Cap'n Proto → model is lossless:
# - std::optional<T> is a group `x :union { absent @a :Void; value @b :T; }`. `absent` is the
#   default, so a field added later reads as absent from older bytes, and a present zero, false or
#   empty value stays distinct from an absent one.
# - A map (labels, annotations, ResourceList) is a List of entries sorted bytewise by key.
# - Times are Int64 nanoseconds since the Unix epoch (UTC).
# Fields are only ever added, never renumbered or removed (design.md §2, Schema evolution).

@0xc7bbb109491727b8;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("koordq::wire");

struct StringEntry {
  key @0 :Text;
  value @1 :Text;
}

# One entry of a ResourceList: resource name → quantity text exactly as received (§3.2).
struct ResourceEntry {
  name @0 :Text;
  quantity @1 :Text;
}

struct ObjectMeta {
  name @0 :Text;
  namespace @1 :Text;
  uid @2 :Text;
  resourceVersion @3 :Text;
  creationTimestamp :union {
    absent @4 :Void;
    value @5 :Int64;
  }
  deletionTimestamp :union {
    absent @6 :Void;
    value @7 :Int64;
  }
  labels @8 :List(StringEntry);
  annotations @9 :List(StringEntry);
}

# --- QueueUnit (scheduling.x-k8s.io/v1alpha1) -------------------------------------------------

struct ConsumerRef {
  apiVersion @0 :Text;
  kind @1 :Text;
  name @2 :Text;
  namespace @3 :Text;
  uid @4 :Text;
}

struct ContainerResources {
  name @0 :Text;
  requests @1 :List(ResourceEntry);
  limits @2 :List(ResourceEntry);
}

struct PodSet {
  name @0 :Text;
  count @1 :Int64;
  minCount :union {
    absent @2 :Void;
    value @3 :Int64;
  }
  containers @4 :List(ContainerResources);
}

struct QueueUnitSpec {
  consumerRef :union {
    absent @0 :Void;
    value @1 :ConsumerRef;
  }
  priority :union {
    absent @2 :Void;
    value @3 :Int32;
  }
  podSet @4 :List(PodSet);
  request @5 :List(ResourceEntry);
  resource @6 :List(ResourceEntry);
  queue @7 :Text;
  priorityClassName @8 :Text;
  active :union {
    absent @9 :Void;
    value @10 :Bool;
  }
  maximumExecutionTimeSeconds :union {
    absent @11 :Void;
    value @12 :Int32;
  }
}

struct ReclaimState {
  replicas @0 :Int64;
}

struct Admission {
  name @0 :Text;
  replicas @1 :Int64;
  resources :union {
    absent @2 :Void;
    value @3 :List(ResourceEntry);
  }
  running @4 :Int64;
  reclaimState :union {
    absent @5 :Void;
    value @6 :ReclaimState;
  }
}

struct AdmissionCheckState {
  name @0 :Text;
  state @1 :Text;
  lastTransitionTime :union {
    absent @2 :Void;
    value @3 :Int64;
  }
  message @4 :Text;
  podSetUpdatesJson @5 :Text;  # compact JSON array as received, "" when absent
}

struct PodState {
  running @0 :Int64;
  pending @1 :Int64;
}

struct QueueUnitStatus {
  phase @0 :Text;
  message @1 :Text;
  attempts @2 :Int64;
  lastUpdateTime :union {
    absent @3 :Void;
    value @4 :Int64;
  }
  lastAllocateTime :union {
    absent @5 :Void;
    value @6 :Int64;
  }
  admissions @7 :List(Admission);
  admissionChecks @8 :List(AdmissionCheckState);
  podState :union {
    absent @9 :Void;
    value @10 :PodState;
  }
}

struct QueueUnit {
  metadata @0 :ObjectMeta;
  spec @1 :QueueUnitSpec;
  status @2 :QueueUnitStatus;
}

# --- Queue (scheduling.x-k8s.io/v1alpha1) -----------------------------------------------------

struct LabelSelectorRequirement {
  key @0 :Text;
  operator @1 :Text;  # In, NotIn, Exists, DoesNotExist
  values @2 :List(Text);
}

struct LabelSelector {
  matchLabels @0 :List(StringEntry);
  matchExpressions @1 :List(LabelSelectorRequirement);
}

struct QueueAdmissionCheck {
  name @0 :Text;
  labelSelector :union {
    absent @1 :Void;
    value @2 :LabelSelector;
  }
}

struct QueueSpec {
  queuePolicy @0 :Text;
  priority :union {
    absent @1 :Void;
    value @2 :Int32;
  }
  priorityClassName @3 :Text;
  admissionChecks @4 :List(QueueAdmissionCheck);
}

struct QueueItem {
  name @0 :Text;
  namespace @1 :Text;
  priority :union {
    absent @2 :Void;
    value @3 :Int32;
  }
  position @4 :Int64;
}

struct QueueItemDetails {
  active @0 :List(QueueItem);
  backoff @1 :List(QueueItem);
}

struct QueueStatus {
  queueItemDetails :union {
    absent @0 :Void;
    value @1 :QueueItemDetails;
  }
}

struct Queue {
  metadata @0 :ObjectMeta;
  spec @1 :QueueSpec;
  status @2 :QueueStatus;
}

# --- ElasticQuota (scheduling.sigs.k8s.io/v1alpha1, read only) --------------------------------

struct ElasticQuotaSpec {
  max @0 :List(ResourceEntry);
  min @1 :List(ResourceEntry);
}

struct ElasticQuota {
  metadata @0 :ObjectMeta;
  spec @1 :ElasticQuotaSpec;
}

# --- Any watched object -----------------------------------------------------------------------

# Same order as schema::ObjectKind.
enum ObjectKind {
  queueUnit @0;
  queue @1;
  elasticQuota @2;
}

# `none` (the default) is a watch event without an object: a BOOKMARK.
struct WatchedObject {
  union {
    none @0 :Void;
    queueUnit @1 :QueueUnit;
    queue @2 :Queue;
    elasticQuota @3 :ElasticQuota;
  }
}
