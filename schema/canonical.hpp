// The bytes a record's hash covers (design.md §5): hash = SHA-256(prevHash ‖ B), where B is the
// record's canonical Cap'n Proto encoding (one segment, no segment table) with `hash` unset.
// Equal records give equal B whatever their layout, including fields this binary does not know.
#pragma once

#include <string>
#include <string_view>

#include "base/result.hpp"
#include "schema/record.capnp.h"

namespace koordq::schema {

// Throws kj::Exception when `record` is malformed.
std::string canonical_record_bytes(wire::Record::Reader record);

// The same from a record's flat bytes (wire::message_bytes); an Error when they are malformed.
Result<std::string> canonical_record_bytes(std::string_view record_bytes);

}  // namespace koordq::schema
