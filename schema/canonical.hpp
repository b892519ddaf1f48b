// The bytes a record's hash covers (design.md §5): hash = SHA-256(prevHash ‖ B), where B is the
// record's canonical Cap'n Proto encoding (one segment, no segment table) with `hash` unset.
// Equal records give equal B whatever their layout, including fields this binary does not know.
#pragma once

#include <string>
#include <string_view>

#include <capnp/pointer-helpers.h>

#include "base/result.hpp"
#include "schema/record.capnp.h"

namespace koordq::schema {

namespace detail {
std::string canonical_struct_bytes(const capnp::_::StructReader& root);
}

// The canonical Cap'n Proto encoding of `root` as one segment without a segment table: what
// capnp::canonicalize returns, written straight into the string. (capnp::canonicalize walks the
// message twice more, to assert that its own output is canonical, and copies it twice.)
template <class Reader>
std::string canonical_bytes(Reader root) {
  return detail::canonical_struct_bytes(capnp::_::PointerHelpers<capnp::FromReader<Reader>>::getInternalReader(root));
}

// Throws kj::Exception when `record` is malformed.
std::string canonical_record_bytes(wire::Record::Reader record);

// The same from a record's flat bytes (wire::message_bytes); an Error when they are malformed.
Result<std::string> canonical_record_bytes(std::string_view record_bytes);

}  // namespace koordq::schema
