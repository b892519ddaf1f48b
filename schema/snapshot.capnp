# A state snapshot (design.md §5): the state after record `seq`, as the actors saved it.
# The decision core defines what each part's payload holds; this is only the container.

@0xd4d644cbd54ff03c;

using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("koordq::wire");

struct Snapshot {
  seq @0 :UInt64;                     # the state after this record
  time @1 :Int64;                     # that record's time, ns since the epoch
  journalUuid @2 :Text;
  decisionLogicVersion @3 :UInt32;    # of the binary that wrote the snapshot
  schemaMajor @4 :UInt16;
  schemaMinor @5 :UInt16;
  parts @6 :List(Part);

  struct Part {
    actor @0 :Text;                   # "queue/<name>", "quota/<name>", …
    incremental @1 :Bool;             # only what changed since the actor's previous snapshot part
    payload @2 :Data;                 # the actor's own encoding
  }
}
