// Cap'n Proto bytes from outside (behaviour: a journal or export may be corrupt) on arbitrary input.
// Beyond not crashing: an accepted WatchedObject re-encodes to bytes that decode to the same object,
// and the same bytes read as a Record either canonicalise (idempotently) or give an Error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "schema/canonical.hpp"
#include "schema/wire_bytes.hpp"
#include "schema/wire_message.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

void check_watched_object(std::string_view bytes) {
  auto decoded = koordq::schema::from_capnp_bytes(bytes);
  if (!decoded.ok()) {
    check(!decoded.message().empty());
    return;
  }
  auto again = koordq::schema::from_capnp_bytes(koordq::schema::to_capnp_bytes(*decoded));
  check(again.ok() && *again == *decoded);
}

void check_record(std::string_view bytes) {
  auto canonical = koordq::schema::canonical_record_bytes(bytes);
  if (!canonical.ok()) return;
  auto segment = koordq::wire::FlatMessage::open_segment(*canonical);
  check(segment.ok());
  try {
    check(koordq::schema::canonical_record_bytes(segment->root<koordq::wire::Record>()) == *canonical);
  } catch (...) {
    check(false);  // canonical bytes written by Cap'n Proto itself must read back
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  check_watched_object(bytes);
  check_record(bytes);
  return 0;
}
