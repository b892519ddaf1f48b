// Records of every kind round-trip through bytes; canonical bytes are stable and ignore `hash`.
#include <cstring>
#include <string>

#include <capnp/any.h>
#include <capnp/message.h>
#include <capnp/pretty-print.h>
#include <gtest/gtest.h>
#include <kj/encoding.h>

#include "schema/canonical.hpp"
#include "schema/wire_message.hpp"
#include "schema/wire_schema_version.hpp"
#include "tests/support/record_samples.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

std::string text_of(wire::Record::Reader record) {
  return kj::str(record).cStr();
}

std::string hex(const std::string& bytes) {
  return kj::encodeHex(kj::arrayPtr(reinterpret_cast<const kj::byte*>(bytes.data()), bytes.size())).cStr();
}

std::string kind_name(const ::testing::TestParamInfo<wire::Record::Body::Which>& info) {
  static const char* const kNames[] = {"config", "role", "relist", "watch", "tick", "round", "outcome"};
  return kNames[static_cast<int>(info.param)];
}

class WireRecord : public ::testing::TestWithParam<wire::Record::Body::Which> {};

TEST_P(WireRecord, round_trips_through_bytes) {
  capnp::MallocMessageBuilder message;
  auto record = message.initRoot<wire::Record>();
  samples::fill_sample_record(record, GetParam());
  ASSERT_EQ(record.asReader().getBody().which(), GetParam());

  auto opened = wire::FlatMessage::open(wire::message_bytes(message));
  ASSERT_TRUE(opened.ok()) << opened.message();
  const auto read = opened->root<wire::Record>();
  EXPECT_EQ(read.getBody().which(), GetParam());
  EXPECT_EQ(text_of(read), text_of(record.asReader()));
  EXPECT_EQ(canonical_record_bytes(read), canonical_record_bytes(record.asReader()));
}

TEST_P(WireRecord, canonical_bytes_read_back_as_the_record_without_its_hash) {
  capnp::MallocMessageBuilder message;
  auto record = message.initRoot<wire::Record>();
  samples::fill_sample_record(record, GetParam());
  const std::string canonical = canonical_record_bytes(record.asReader());

  auto opened = wire::FlatMessage::open_segment(canonical);
  ASSERT_TRUE(opened.ok()) << opened.message();
  const auto read = opened->root<wire::Record>();
  EXPECT_FALSE(read.hasHash());
  record.disownHash();
  EXPECT_EQ(text_of(read), text_of(record.asReader()));
  EXPECT_EQ(canonical_record_bytes(read), canonical);
}

TEST_P(WireRecord, canonical_bytes_do_not_depend_on_the_hash_or_the_layout) {
  capnp::MallocMessageBuilder compact;
  samples::fill_sample_record(compact.initRoot<wire::Record>(), GetParam());
  capnp::MallocMessageBuilder fragmented(4, capnp::AllocationStrategy::FIXED_SIZE);
  auto other = fragmented.initRoot<wire::Record>();
  samples::fill_sample_record(other, GetParam());
  other.setHash(samples::data_of("another hash"));
  ASSERT_GT(fragmented.getSegmentsForOutput().size(), 1u);

  EXPECT_NE(wire::message_bytes(compact), wire::message_bytes(fragmented));
  EXPECT_EQ(canonical_record_bytes(compact.getRoot<wire::Record>().asReader()),
            canonical_record_bytes(other.asReader()));
}

TEST_P(WireRecord, canonical_bytes_change_with_every_hashed_field) {
  capnp::MallocMessageBuilder message;
  auto record = message.initRoot<wire::Record>();
  samples::fill_sample_record(record, GetParam());
  const std::string original = canonical_record_bytes(record.asReader());

  record.setSeq(43);
  EXPECT_NE(canonical_record_bytes(record.asReader()), original);
  record.setSeq(42);
  record.setTime(record.getTime() + 1);
  EXPECT_NE(canonical_record_bytes(record.asReader()), original);
  record.setTime(record.getTime() - 1);
  record.setPrevHash(samples::data_of(std::string(32, '\x12')));
  EXPECT_NE(canonical_record_bytes(record.asReader()), original);
  record.setPrevHash(samples::data_of(std::string(32, '\x11')));
  EXPECT_EQ(canonical_record_bytes(record.asReader()), original);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, WireRecord, ::testing::ValuesIn(samples::kAllRecordKinds), kind_name);

// Pins the encoding: a change here breaks every existing journal's hash chain.
TEST(CanonicalRecord, tick_bytes_are_pinned) {
  capnp::MallocMessageBuilder message;
  auto record = message.initRoot<wire::Record>();
  record.setSeq(1);
  record.setTime(1'776'672'000'000'000'000);
  record.setPrevHash(samples::data_of("ab"));
  record.setHash(samples::data_of("cd"));
  record.initBody().setTick();
  EXPECT_EQ(hex(canonical_record_bytes(record.asReader())),
            "0000000003000100"    // root: struct of 3 data words and 1 pointer (hash is unset, so dropped)
            "0100000000000000"    // seq
            "00006252c501a818"    // time
            "0400000000000000"    // body: tick
            "0100000012000000"    // prevHash: 2 bytes, 1 word on
            "6162000000000000");  // "ab"
}

TEST(CanonicalRecord, unknown_fields_and_kinds_are_kept) {
  capnp::MallocMessageBuilder message;
  auto record = message.initRoot<wire::Record>();
  samples::fill_sample_record(record, wire::Record::Body::TICK);
  const std::string tick = canonical_record_bytes(record.asReader());
  const auto offset = capnp::Schema::from<wire::Record::Body>().getProto().getStruct().getDiscriminantOffset();
  const uint16_t kind_from_the_future = 11;
  std::memcpy(
      capnp::AnyStruct::Builder(wire::Record::Builder(record)).getDataSection().begin() + offset * sizeof(uint16_t),
      &kind_from_the_future, sizeof kind_from_the_future);
  const std::string future = canonical_record_bytes(record.asReader());
  EXPECT_NE(future, tick);

  auto opened = wire::FlatMessage::open_segment(future);
  ASSERT_TRUE(opened.ok());
  EXPECT_EQ(static_cast<uint16_t>(opened->root<wire::Record>().getBody().which()), kind_from_the_future);
  EXPECT_EQ(canonical_record_bytes(opened->root<wire::Record>()), future);
}

// Canonicalisation shrinks a list of all-zero structs to zero-sized elements, which cost no bytes
// but a word each to read: the reader's traversal limit must not reject such a legitimate record.
TEST(CanonicalRecord, a_long_list_of_empty_structs_reads_back) {
  capnp::MallocMessageBuilder message;
  auto record = message.initRoot<wire::Record>();
  record.initBody().initRound().initDecisions(20'000);
  const std::string canonical = canonical_record_bytes(record.asReader());
  EXPECT_LT(canonical.size(), 128u);

  auto opened = wire::FlatMessage::open_segment(canonical);
  ASSERT_TRUE(opened.ok()) << opened.message();
  EXPECT_EQ(opened->root<wire::Record>().getBody().getRound().getDecisions().size(), 20'000u);
  EXPECT_EQ(canonical_record_bytes(opened->root<wire::Record>()), canonical);
}

TEST(CanonicalRecord, from_bytes_reports_malformed_input) {
  EXPECT_FALSE(canonical_record_bytes(std::string_view()).ok());
  EXPECT_FALSE(canonical_record_bytes(std::string_view("\x00\x00\x00\x00\xff\xff\xff\x00", 8)).ok());

  capnp::MallocMessageBuilder message;
  samples::fill_sample_record(message.initRoot<wire::Record>(), wire::Record::Body::ROUND);
  auto canonical = canonical_record_bytes(wire::message_bytes(message));
  ASSERT_TRUE(canonical.ok()) << canonical.message();
  EXPECT_EQ(*canonical, canonical_record_bytes(message.getRoot<wire::Record>().asReader()));
}

TEST(CanonicalRecord, schema_version_is_one_zero) {
  EXPECT_EQ(kWireSchemaMajor, 1);
  EXPECT_EQ(kWireSchemaMinor, 0);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
