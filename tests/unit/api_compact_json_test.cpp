// The compact writer of the visibility API against rapidjson::Writer, which it replaces there:
// the same calls give the same bytes (separators, escapes of every byte value, integers at the
// limits, empty and nested containers), over fixed cases and 2,000 random documents.
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "api/compact_json.hpp"
#include "api/json_out.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

// Writes the same document into both writers.
class BothWriters {
 public:
  BothWriters() : rapid_(buffer_) {}

  void key(std::string_view k) {
    ours_.key(k);
    rapid_.Key(k.data(), static_cast<rapidjson::SizeType>(k.size()));
  }
  void string(std::string_view v) {
    ours_.string(v);
    rapid_.String(v.data(), static_cast<rapidjson::SizeType>(v.size()));
  }
  void integer(int64_t v) {
    ours_.integer(v);
    rapid_.Int64(v);
  }
  void boolean(bool v) {
    ours_.boolean(v);
    rapid_.Bool(v);
  }
  void null() {
    ours_.null();
    rapid_.Null();
  }
  void begin_object() {
    ours_.begin_object();
    rapid_.StartObject();
  }
  void end_object() {
    ours_.end_object();
    rapid_.EndObject();
  }
  void begin_array() {
    ours_.begin_array();
    rapid_.StartArray();
  }
  void end_array() {
    ours_.end_array();
    rapid_.EndArray();
  }

  std::string ours() { return ours_.take(); }
  std::string rapid() const { return std::string(buffer_.GetString(), buffer_.GetSize()); }

 private:
  api::CompactJson ours_;
  rapidjson::StringBuffer buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> rapid_;
};

TEST(CompactJson, every_byte_value_is_escaped_or_kept_as_rapidjson_does) {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  BothWriters w;
  w.begin_array();
  w.string(all);
  for (int c = 0; c < 256; ++c) w.string(std::string(1, static_cast<char>(c)) + "x");
  w.end_array();
  const std::string ours = w.ours();
  EXPECT_EQ(ours, w.rapid());
  EXPECT_NE(ours.find(R"(\u0000\u0001)"), std::string::npos);
  EXPECT_NE(ours.find(R"(\b\t\n\u000B\f\r)"), std::string::npos);
  EXPECT_NE(ours.find(R"(\u001F !\"#)"), std::string::npos);
}

TEST(CompactJson, separators_follow_keys_values_and_nested_containers) {
  BothWriters w;
  w.begin_object();
  w.key("a");
  w.begin_object();
  w.end_object();
  w.key("b");
  w.begin_array();
  w.end_array();
  w.key("c");
  w.begin_array();
  w.begin_object();
  w.key("d");
  w.null();
  w.end_object();
  w.begin_array();
  w.boolean(true);
  w.boolean(false);
  w.end_array();
  w.integer(std::numeric_limits<int64_t>::min());
  w.integer(std::numeric_limits<int64_t>::max());
  w.integer(0);
  w.end_array();
  w.key("");
  w.string("");
  w.end_object();
  const std::string ours = w.ours();
  EXPECT_EQ(ours, w.rapid());
  EXPECT_EQ(ours, R"({"a":{},"b":[],"c":[{"d":null},[true,false],-9223372036854775808,9223372036854775807,0],"":""})");
}

// A random value of at most `depth` levels of containers.
void random_value(BothWriters& w, std::mt19937_64& rng, int depth) {
  auto text = [&] {
    std::string s(rng() % 12, ' ');
    for (char& c : s) {
      const auto pick = rng() % 8;
      c = pick == 0 ? static_cast<char>(rng() % 256) : pick == 1 ? '"' : static_cast<char>('a' + rng() % 26);
    }
    return s;
  };
  const auto kind = depth == 0 ? rng() % 4 : rng() % 6;
  switch (kind) {
    case 0:
      w.string(text());
      break;
    case 1:
      w.integer(static_cast<int64_t>(rng()) >> (rng() % 64));
      break;
    case 2:
      w.boolean(rng() % 2 == 0);
      break;
    case 3:
      w.null();
      break;
    case 4: {
      w.begin_object();
      for (auto n = rng() % 5; n > 0; --n) {
        w.key(text());
        random_value(w, rng, depth - 1);
      }
      w.end_object();
      break;
    }
    default: {
      w.begin_array();
      for (auto n = rng() % 5; n > 0; --n) random_value(w, rng, depth - 1);
      w.end_array();
      break;
    }
  }
}

TEST(CompactJson, random_documents_are_written_as_rapidjson_writes_them) {
  std::mt19937_64 rng(20261202);
  for (int i = 0; i < 2000; ++i) {
    BothWriters w;
    random_value(w, rng, 4);
    const std::string ours = w.ours();
    ASSERT_EQ(ours, w.rapid()) << "document " << i;
  }
}

TEST(CompactJson, json_out_writes_compact_text_through_it_and_keeps_the_indented_form) {
  api::JsonOut compact;
  compact.begin_object().field("kind", "Queue").key("items").begin_array().integer(1).end_array().end_object();
  EXPECT_EQ(compact.take(), R"({"kind":"Queue","items":[1]})");
  api::JsonOut indented(true);
  indented.begin_object().field("kind", "Queue").key("items").begin_array().integer(1).end_array().end_object();
  EXPECT_EQ(indented.take(), "{\n\t\"kind\": \"Queue\",\n\t\"items\": [\n\t\t1\n\t]\n}");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
