// A watched object as one flat Cap'n Proto message (model.capnp WatchedObject), for storage and
// transport. Light on purpose: includers do not see Cap'n Proto.
#pragma once

#include <string>
#include <string_view>

#include "base/result.hpp"
#include "schema/watched_object.hpp"

namespace koordq::schema {

std::string to_capnp_bytes(const WatchedObject& object);

// Any bytes are accepted: corrupt, truncated, unaligned or empty input gives an Error, never an
// exception or a crash.
Result<WatchedObject> from_capnp_bytes(std::string_view bytes);

}  // namespace koordq::schema
