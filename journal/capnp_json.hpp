// A Cap'n Proto struct as JSON, written straight into a string: byte for byte what
// capnp::JsonCodec (compact, no annotations handled, Data as lowercase hex) writes, without the
// JsonValue message and string tree it builds first, and without asking the schema about each
// field of each record (Cap'n Proto's reflection interprets a field's type on every access).
// The schema is read once, into a plan per struct: each member's JSON key, where its value lies
// and how to write it; then values are read through AnyStruct, the library's untyped reader.
// Export lines, audit lines and the journal stream carry record bodies in this form and `journal
// verify --export` compares them byte for byte, so the bytes are the contract:
// tests/unit/capnp_json_test.cpp checks them against JsonCodec itself on random records.
#pragma once

#include <memory>
#include <string>

#include <capnp/any.h>
#include <capnp/schema.h>

namespace koordq::journal {
namespace capnp_json {
struct StructPlan;
struct Plans;
}  // namespace capnp_json

class CapnpJsonWriter {
 public:
  // Plans `schema` and every struct it reaches.
  explicit CapnpJsonWriter(capnp::StructSchema schema);
  ~CapnpJsonWriter();
  CapnpJsonWriter(const CapnpJsonWriter&) = delete;
  CapnpJsonWriter& operator=(const CapnpJsonWriter&) = delete;

  // Appends the JSON of `value`, a struct of the planned schema. Throws kj::Exception where
  // JsonCodec does (a pointer Cap'n Proto refuses to follow, a set AnyPointer or interface
  // field), after appending part of it. Safe to call from several threads at once.
  void append(std::string& out, capnp::AnyStruct::Reader value) const;

 private:
  std::unique_ptr<capnp_json::Plans> plans_;
  const capnp_json::StructPlan* root_;
};

}  // namespace koordq::journal
