// from_capnp_bytes at the edge: bad bytes give an Error, never a crash; other schema layouts read.
#include <cstring>
#include <string>
#include <vector>

#include <capnp/any.h>
#include <capnp/message.h>
#include <capnp/schema.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "schema/wire_codec.hpp"
#include "schema/wire_message.hpp"
#include "tests/support/model_samples.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

using ::testing::HasSubstr;

std::string sample_bytes() {
  return to_capnp_bytes(samples::realistic_queue_unit());
}

template <class T>
capnp::StructSchema::Field field(const char* name) {
  return capnp::Schema::from<T>().getFieldByName(name);
}

template <class T>
uint32_t pointer_index(const char* name) {
  return field<T>(name).getProto().getSlot().getOffset();
}

// The pointer slot of field `name` of `builder`, to lay out by hand what another binary might write.
template <class T>
capnp::AnyPointer::Builder pointer_of(typename T::Builder builder, const char* name) {
  return capnp::AnyStruct::Builder(std::move(builder)).getPointerSection()[pointer_index<T>(name)];
}

TEST(WireBytes, empty_input_is_an_error) {
  auto decoded = from_capnp_bytes("");
  ASSERT_FALSE(decoded.ok());
  EXPECT_THAT(decoded.message(), HasSubstr("empty"));
}

TEST(WireBytes, input_that_is_not_whole_words_is_an_error) {
  const std::string bytes = sample_bytes();
  for (size_t cut : {size_t{1}, size_t{7}, bytes.size() - 1}) {
    auto decoded = from_capnp_bytes(std::string_view(bytes).substr(0, cut));
    ASSERT_FALSE(decoded.ok()) << cut;
    EXPECT_THAT(decoded.message(), HasSubstr("8-byte words"));
  }
}

TEST(WireBytes, every_truncation_is_an_error) {
  const std::string bytes = sample_bytes();
  for (size_t words = 1; words * 8 < bytes.size(); ++words) {
    EXPECT_FALSE(from_capnp_bytes(std::string_view(bytes).substr(0, words * 8)).ok()) << words << " words";
  }
}

TEST(WireBytes, trailing_bytes_are_an_error) {
  auto decoded = from_capnp_bytes(sample_bytes() + std::string(8, '\0'));
  ASSERT_FALSE(decoded.ok());
  EXPECT_THAT(decoded.message(), HasSubstr("followed by"));
}

TEST(WireBytes, unaligned_input_decodes) {
  const std::string bytes = sample_bytes();
  std::vector<char> buffer(bytes.size() + 1);
  std::memcpy(buffer.data() + 1, bytes.data(), bytes.size());
  auto decoded = from_capnp_bytes(std::string_view(buffer.data() + 1, bytes.size()));
  ASSERT_TRUE(decoded.ok()) << decoded.message();
  EXPECT_EQ(std::get<QueueUnit>(*decoded), samples::realistic_queue_unit());
}

TEST(WireBytes, any_corrupted_byte_gives_a_value_or_an_error) {
  const std::string bytes = sample_bytes();
  int errors = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (unsigned char mask : {0x01, 0x80, 0xff}) {
      std::string corrupt = bytes;
      corrupt[i] = static_cast<char>(corrupt[i] ^ mask);
      if (!from_capnp_bytes(corrupt).ok()) ++errors;
    }
  }
  EXPECT_GT(errors, 0);
}

TEST(WireBytes, a_segment_table_claiming_more_than_the_input_is_an_error) {
  std::string bytes = sample_bytes();
  const uint32_t huge = 0x7fffffff;
  std::memcpy(bytes.data() + 4, &huge, sizeof huge);  // size of segment 0
  EXPECT_FALSE(from_capnp_bytes(bytes).ok());
  const uint32_t many_segments = 0xffff;
  std::memcpy(bytes.data(), &many_segments, sizeof many_segments);
  EXPECT_FALSE(from_capnp_bytes(bytes).ok());
}

TEST(WireBytes, a_message_without_an_object_is_an_error) {
  capnp::MallocMessageBuilder message;
  message.initRoot<wire::WatchedObject>().setNone();
  auto decoded = from_capnp_bytes(wire::message_bytes(message));
  ASSERT_FALSE(decoded.ok());
  EXPECT_THAT(decoded.message(), HasSubstr("no object"));
}

TEST(WireBytes, an_object_kind_from_a_newer_binary_is_an_error) {
  capnp::MallocMessageBuilder message;
  auto root = message.initRoot<wire::WatchedObject>();
  root.initQueue();
  const auto offset = capnp::Schema::from<wire::WatchedObject>().getProto().getStruct().getDiscriminantOffset();
  const uint16_t unknown_kind = 9;
  std::memcpy(capnp::AnyStruct::Builder(wire::WatchedObject::Builder(root)).getDataSection().begin() +
                  offset * sizeof(uint16_t),
              &unknown_kind, sizeof unknown_kind);
  auto decoded = from_capnp_bytes(wire::message_bytes(message));
  ASSERT_FALSE(decoded.ok());
  EXPECT_THAT(decoded.message(), HasSubstr("unknown kind"));
}

// A list of zero-sized structs costs no bytes however long it claims to be; reading it must hit
// the traversal limit instead of materialising billions of pod sets.
TEST(WireBytes, an_amplified_list_is_an_error) {
  capnp::MallocMessageBuilder message;
  auto spec = message.initRoot<wire::WatchedObject>().initQueueUnit().initSpec();
  pointer_of<wire::QueueUnitSpec>(spec, "podSet").initAsListOfAnyStruct(0, 0, 1u << 28);
  const std::string bytes = wire::message_bytes(message);
  EXPECT_LT(bytes.size(), 1024u);
  auto decoded = from_capnp_bytes(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_THAT(decoded.message(), HasSubstr("malformed"));
}

// An older binary knew fewer ObjectMeta fields: its struct has no data section and one pointer.
TEST(WireBytes, a_struct_with_fewer_fields_reads_with_defaults) {
  capnp::MallocMessageBuilder message;
  auto unit = message.initRoot<wire::WatchedObject>().initQueueUnit();
  auto old_meta = pointer_of<wire::QueueUnit>(unit, "metadata").initAsAnyStruct(0, 1);
  old_meta.getPointerSection()[pointer_index<wire::ObjectMeta>("name")].setAs<capnp::Text>("written-long-ago");
  unit.initStatus().setPhase("Enqueued");

  auto decoded = from_capnp_bytes(wire::message_bytes(message));
  ASSERT_TRUE(decoded.ok()) << decoded.message();
  QueueUnit expected;
  expected.metadata.name = "written-long-ago";
  expected.status.phase = "Enqueued";
  EXPECT_EQ(std::get<QueueUnit>(*decoded), expected);
}

// A newer binary added fields: its ObjectMeta is larger than ours; the fields we know still read.
TEST(WireBytes, a_struct_with_more_fields_reads_the_known_ones) {
  const auto meta_schema = capnp::Schema::from<wire::ObjectMeta>().getProto().getStruct();
  const QueueUnit unit = samples::realistic_queue_unit();
  capnp::MallocMessageBuilder message;
  auto out = message.initRoot<wire::WatchedObject>().initQueueUnit();
  auto newer_meta = pointer_of<wire::QueueUnit>(out, "metadata")
                        .initAsAnyStruct(meta_schema.getDataWordCount() + 2, meta_schema.getPointerCount() + 3);
  write_object_meta(newer_meta.as<wire::ObjectMeta>(), unit.metadata);
  newer_meta.getPointerSection()[meta_schema.getPointerCount() + 1].setAs<capnp::Text>("a field from the future");
  newer_meta.getDataSection()[meta_schema.getDataWordCount() * 8 + 3] = 0x42;
  // The rest of the unit as usual.
  capnp::MallocMessageBuilder reference;
  write_queue_unit(reference.initRoot<wire::QueueUnit>(), unit);
  out.setSpec(reference.getRoot<wire::QueueUnit>().asReader().getSpec());
  out.setStatus(reference.getRoot<wire::QueueUnit>().asReader().getStatus());

  auto decoded = from_capnp_bytes(wire::message_bytes(message));
  ASSERT_TRUE(decoded.ok()) << decoded.message();
  EXPECT_EQ(std::get<QueueUnit>(*decoded), unit);
}

TEST(FlatMessage, opens_what_message_bytes_wrote) {
  capnp::MallocMessageBuilder message;
  write_queue_unit(message.initRoot<wire::QueueUnit>(), samples::realistic_queue_unit());
  auto opened = wire::FlatMessage::open(wire::message_bytes(message));
  ASSERT_TRUE(opened.ok()) << opened.message();
  EXPECT_EQ(read_queue_unit(opened->root<wire::QueueUnit>()), samples::realistic_queue_unit());
}

TEST(FlatMessage, many_segments_survive_the_framing) {
  capnp::MallocMessageBuilder message(8, capnp::AllocationStrategy::FIXED_SIZE);
  write_queue_unit(message.initRoot<wire::QueueUnit>(), samples::realistic_queue_unit());
  ASSERT_GT(message.getSegmentsForOutput().size(), 2u);
  auto opened = wire::FlatMessage::open(wire::message_bytes(message));
  ASSERT_TRUE(opened.ok()) << opened.message();
  EXPECT_EQ(read_queue_unit(opened->root<wire::QueueUnit>()), samples::realistic_queue_unit());
}

TEST(FlatMessage, rejects_bad_framing) {
  EXPECT_FALSE(wire::FlatMessage::open("").ok());
  EXPECT_FALSE(wire::FlatMessage::open("abc").ok());
  EXPECT_FALSE(wire::FlatMessage::open(std::string(8, '\xff')).ok());
  EXPECT_FALSE(wire::FlatMessage::open_segment("").ok());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
