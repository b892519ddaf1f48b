// Invariants of the model ↔ Cap'n Proto codec, one per property.
#include <string>

#include <capnp/message.h>
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "schema/canonical.hpp"
#include "schema/wire_codec.hpp"
#include "schema/wire_message.hpp"
#include "tests/support/model_generators.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

template <class T>
void check_round_trip(const T& value) {
  auto decoded = from_capnp_bytes(to_capnp_bytes(WatchedObject(value)));
  RC_ASSERT(decoded.ok());
  RC_ASSERT(std::holds_alternative<T>(*decoded));
  RC_ASSERT(std::get<T>(*decoded) == value);
}

RC_GTEST_PROP(WireProperty, queue_unit_survives_capnp_bytes, (const QueueUnit& unit)) {
  check_round_trip(unit);
}

// The in-place readers overwrite every field: whatever the object held before, it then equals
// the value written (an optional the message lacks is reset, not left as it was).
RC_GTEST_PROP(WireProperty, a_queue_unit_read_in_place_over_another_equals_the_one_written,
              (const QueueUnit& unit, const QueueUnit& before)) {
  capnp::MallocMessageBuilder message;
  write_queue_unit(message.initRoot<wire::QueueUnit>(), unit);
  QueueUnit out = before;
  read_queue_unit(message.getRoot<wire::QueueUnit>().asReader(), out);
  RC_ASSERT(out == unit);
  QueueUnitStatus status = before.status;
  read_queue_unit_status(message.getRoot<wire::QueueUnit>().asReader().getStatus(), status);
  RC_ASSERT(status == unit.status);
}

RC_GTEST_PROP(WireProperty, queue_survives_capnp_bytes, (const Queue& queue)) {
  check_round_trip(queue);
}

RC_GTEST_PROP(WireProperty, elastic_quota_survives_capnp_bytes, (const ElasticQuota& quota)) {
  check_round_trip(quota);
}

RC_GTEST_PROP(WireProperty, equal_objects_give_equal_bytes, (const WatchedObject& object)) {
  const WatchedObject copy = object;
  RC_ASSERT(to_capnp_bytes(object) == to_capnp_bytes(copy));
}

// A watch record holding `object`, laid out by `message`.
std::string canonical_watch(capnp::MessageBuilder& message, const WatchedObject& object, const std::string& hash) {
  auto record = message.initRoot<wire::Record>();
  record.setSeq(7);
  record.setTime(1'776'672'000'000'000'000);
  record.setPrevHash(capnp::Data::Reader(reinterpret_cast<const kj::byte*>("prev"), 4));
  record.setHash(capnp::Data::Reader(reinterpret_cast<const kj::byte*>(hash.data()), hash.size()));
  auto watch = record.initBody().initWatch();
  watch.setObjectKind(to_wire(kind_of(object)));
  write_watched_object(watch.initObject(), object);
  return canonical_record_bytes(record.asReader());
}

RC_GTEST_PROP(WireProperty, object_survives_canonical_record_bytes, (const WatchedObject& object)) {
  capnp::MallocMessageBuilder message;
  auto opened = wire::FlatMessage::open_segment(canonical_watch(message, object, "hash"));
  RC_ASSERT(opened.ok());
  auto decoded = read_watched_object(opened->root<wire::Record>().getBody().getWatch().getObject());
  RC_ASSERT(decoded.ok());
  RC_ASSERT(*decoded == object);
}

RC_GTEST_PROP(WireProperty, equal_records_give_equal_canonical_bytes_whatever_layout_and_hash,
              (const WatchedObject& object, const std::string& hash)) {
  capnp::MallocMessageBuilder compact;
  capnp::MallocMessageBuilder fragmented(*rc::gen::inRange(1, 64), capnp::AllocationStrategy::FIXED_SIZE);
  RC_ASSERT(canonical_watch(compact, object, "h") == canonical_watch(fragmented, object, hash));
}

// koordq writes the canonical form itself; capnp::canonicalize is the reference.
RC_GTEST_PROP(WireProperty, canonical_bytes_are_those_of_capnp_canonicalize, (const WatchedObject& object)) {
  capnp::MallocMessageBuilder fragmented(*rc::gen::inRange(1, 64), capnp::AllocationStrategy::FIXED_SIZE);
  canonical_watch(fragmented, object, "h");
  const auto record = fragmented.getRoot<wire::Record>().asReader();
  const auto words = capnp::canonicalize(record);
  const auto bytes = words.asBytes();
  RC_ASSERT(canonical_bytes(record) == std::string(reinterpret_cast<const char*>(bytes.begin()), bytes.size()));
}

RC_GTEST_PROP(WireProperty, different_records_give_different_canonical_bytes,
              (const WatchedObject& a, const WatchedObject& b)) {
  capnp::MallocMessageBuilder first;
  capnp::MallocMessageBuilder second;
  RC_ASSERT((canonical_watch(first, a, "h") == canonical_watch(second, b, "h")) == (a == b));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
