// A Cap'n Proto value as JSON, written straight into a string: byte for byte what
// capnp::JsonCodec (compact, no annotations handled, Data as lowercase hex) writes, without the
// JsonValue message and string tree it builds first, which cost most of an export
// (BENCHMARKS.md, "Export and verify"). Export lines, audit lines and the journal stream carry
// record bodies in this form, and `journal verify --export` compares them byte for byte, so the
// bytes are the contract: tests/unit/capnp_json_test.cpp checks them against JsonCodec itself.
#pragma once

#include <string>

#include <capnp/dynamic.h>

namespace koordq::journal {

// Appends the JSON of `value`. Throws kj::Exception where JsonCodec does (a pointer Cap'n Proto
// refuses to follow, an AnyPointer or interface field), after appending part of it.
void append_capnp_json(std::string& out, capnp::DynamicStruct::Reader value);

}  // namespace koordq::journal
