// journal/capnp_json.*: the JSON of record bodies is byte for byte capnp::JsonCodec's (with Data
// as hex), which exports written before it used, so that their lines still verify. Records are
// filled at random through Cap'n Proto's reflection: every field of every struct the schema holds,
// unions on each member, pointers null or set, texts with every byte, unknown enum values.
#include "journal/capnp_json.hpp"

#include <random>
#include <string>

#include <capnp/compat/json.h>
#include <capnp/message.h>
#include <gtest/gtest.h>

#include "schema/record.capnp.h"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

class HexData final : public capnp::JsonCodec::Handler<capnp::Data> {
 public:
  void encode(const capnp::JsonCodec&, capnp::Data::Reader input, capnp::JsonValue::Builder output) const override {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string hex;
    for (const kj::byte b : input) {
      hex.push_back(kDigits[b >> 4]);
      hex.push_back(kDigits[b & 0xf]);
    }
    output.setString(hex);
  }
  capnp::Orphan<capnp::Data> decode(const capnp::JsonCodec&, capnp::JsonValue::Reader,
                                    capnp::Orphanage) const override {
    KJ_UNIMPLEMENTED("not decoded");
  }
};

// What export lines carried before journal/capnp_json.cpp: JsonCodec, compact, Data as hex.
std::string json_codec(capnp::DynamicStruct::Reader value) {
  HexData hex;
  capnp::JsonCodec codec;
  codec.setPrettyPrint(false);
  codec.addTypeHandler(hex);
  const kj::String json = codec.encode(capnp::DynamicValue::Reader(value), value.getSchema());
  return std::string(json.cStr(), json.size());
}

std::string written(capnp::DynamicStruct::Reader value) {
  const CapnpJsonWriter writer(value.getSchema());
  std::string out = "prefix";
  writer.append(out, value.as<capnp::AnyStruct>());
  return out.substr(6);
}

class RandomFill {
 public:
  explicit RandomFill(uint64_t seed) : rng_(seed) {}

  void fill(capnp::DynamicStruct::Builder s, int depth) {
    const auto schema = s.getSchema();
    const auto members = schema.getUnionFields();
    if (members.size() > 0) field(s, members[pick(members.size())], depth);
    for (const auto f : schema.getNonUnionFields()) field(s, f, depth);
  }

 private:
  size_t pick(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool chance(int percent) { return pick(100) < static_cast<size_t>(percent); }

  std::string text() {
    static const std::string kSpecial[] = {"\"",
                                           "\\",
                                           "/",
                                           "\b",
                                           "\f",
                                           "\n",
                                           "\r",
                                           "\t",
                                           "\x01",
                                           "\x1f",
                                           "\x7f",
                                           "é",
                                           "日本",
                                           "\xff",
                                           "\x80",
                                           "a",
                                           "team-a/unit-1",
                                           " "};
    std::string t;
    const size_t n = pick(12);
    for (size_t i = 0; i < n; ++i) {
      if (chance(30)) {
        t.push_back(static_cast<char>(pick(255) + 1));  // any byte but NUL
      } else {
        t += kSpecial[pick(std::size(kSpecial))];
      }
    }
    return t;
  }

  template <class Int>
  Int integer() {
    if (chance(20)) return std::numeric_limits<Int>::min();
    if (chance(20)) return std::numeric_limits<Int>::max();
    return static_cast<Int>(rng_());
  }

  capnp::DynamicValue::Reader primitive(capnp::Type type, std::string& storage, std::string& bytes) {
    switch (type.which()) {
      case capnp::schema::Type::VOID:
        return capnp::VOID;
      case capnp::schema::Type::BOOL:
        return chance(50);
      case capnp::schema::Type::INT8:
        return integer<int8_t>();
      case capnp::schema::Type::INT16:
        return integer<int16_t>();
      case capnp::schema::Type::INT32:
        return integer<int32_t>();
      case capnp::schema::Type::INT64:
        return integer<int64_t>();
      case capnp::schema::Type::UINT8:
        return integer<uint8_t>();
      case capnp::schema::Type::UINT16:
        return integer<uint16_t>();
      case capnp::schema::Type::UINT32:
        return integer<uint32_t>();
      case capnp::schema::Type::UINT64:
        return integer<uint64_t>();
      case capnp::schema::Type::FLOAT32:
      case capnp::schema::Type::FLOAT64:
        return chance(10) ? std::numeric_limits<double>::infinity() : static_cast<double>(integer<int32_t>()) / 7;
      case capnp::schema::Type::TEXT:
        storage = text();
        return capnp::Text::Reader(storage.c_str(), storage.size());
      case capnp::schema::Type::DATA:
        bytes = text();
        return capnp::Data::Reader(reinterpret_cast<const kj::byte*>(bytes.data()), bytes.size());
      case capnp::schema::Type::ENUM: {
        const auto e = type.asEnum();
        const uint16_t raw = chance(10) ? static_cast<uint16_t>(e.getEnumerants().size() + pick(3))
                                        : static_cast<uint16_t>(pick(e.getEnumerants().size()));
        return capnp::DynamicEnum(e, raw);
      }
      default:
        ADD_FAILURE() << "not a primitive type";
        return capnp::VOID;
    }
  }

  void list(capnp::DynamicList::Builder l, int depth) {
    const capnp::Type element = l.getSchema().getElementType();
    for (uint i = 0; i < l.size(); ++i) {
      if (element.isStruct()) {
        fill(l[i].as<capnp::DynamicStruct>(), depth + 1);
      } else if (element.isList()) {
        l.init(i, static_cast<uint>(pick(3)));
      } else {
        std::string storage, bytes;
        l.set(i, primitive(element, storage, bytes));
      }
    }
  }

  void field(capnp::DynamicStruct::Builder s, capnp::StructSchema::Field f, int depth) {
    if (f.getProto().isGroup()) {
      fill(s.init(f).as<capnp::DynamicStruct>(), depth);
      return;
    }
    const capnp::Type type = f.getType();
    if (type.isStruct()) {
      if (depth < 5 && !chance(15))
        fill(s.init(f).as<capnp::DynamicStruct>(), depth + 1);
      else if (f.getProto().getDiscriminantValue() != capnp::schema::Field::NO_DISCRIMINANT)
        s.clear(f);
      return;
    }
    if (type.isList()) {
      if (chance(15)) return;
      list(s.init(f, static_cast<uint>(pick(depth < 3 ? 4 : 2))).as<capnp::DynamicList>(), depth);
      return;
    }
    if ((type.isText() || type.isData()) && chance(15)) {
      if (f.getProto().getDiscriminantValue() != capnp::schema::Field::NO_DISCRIMINANT) s.clear(f);
      return;
    }
    std::string storage, bytes;
    s.set(f, primitive(type, storage, bytes));
  }

  std::mt19937_64 rng_;
};

TEST(CapnpJson, writes_the_bytes_json_codec_writes_for_random_records) {
  for (uint64_t seed = 1; seed <= 3000; ++seed) {
    capnp::MallocMessageBuilder message;
    auto record = message.initRoot<wire::Record>();
    RandomFill(seed).fill(capnp::toDynamic(record), 0);
    const auto body = capnp::toDynamic(record.asReader().getBody());
    ASSERT_EQ(written(body), json_codec(body)) << "seed " << seed;
    const auto whole = capnp::toDynamic(record.asReader());
    ASSERT_EQ(written(whole), json_codec(whole)) << "seed " << seed;
  }
}

TEST(CapnpJson, escapes_every_byte_of_a_text_as_json_codec_does) {
  std::string every;
  for (int c = 0; c < 256; ++c) every.push_back(static_cast<char>(c));
  capnp::MallocMessageBuilder message;
  auto relist = message.initRoot<wire::Record>().initBody().initRelist();
  relist.setResourceVersion(capnp::Text::Reader(every.data(), every.size()));
  const auto body = capnp::toDynamic(message.getRoot<wire::Record>().asReader().getBody());
  EXPECT_EQ(written(body), json_codec(body));
  EXPECT_NE(written(body).find("\\u0000\\u0001"), std::string::npos) << written(body);
}

TEST(CapnpJson, a_null_member_of_a_union_is_null_unless_it_is_the_default_member) {
  capnp::MallocMessageBuilder message;
  auto config = message.initRoot<wire::Record>().initBody().initConfig();
  config.getQuarantinedJournal().setAbsent();
  const auto absent = capnp::toDynamic(message.getRoot<wire::Record>().asReader().getBody());
  EXPECT_NE(written(absent).find("\"quarantinedJournal\":{\"absent\":null}"), std::string::npos) << written(absent);
  capnp::DynamicStruct::Builder group = capnp::toDynamic(config.getQuarantinedJournal());
  group.clear("value");
  const auto null_value = capnp::toDynamic(message.getRoot<wire::Record>().asReader().getBody());
  EXPECT_NE(written(null_value).find("\"quarantinedJournal\":{\"value\":null}"), std::string::npos)
      << written(null_value);
  EXPECT_EQ(written(null_value), json_codec(null_value));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
