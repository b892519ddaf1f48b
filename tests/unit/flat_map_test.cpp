// The objects' flat maps (schema/flat_map.hpp): filled from entries in any order, they hold each key
// once, in order, the first or the last of duplicates as their reader documents.
#include "schema/flat_map.hpp"

#include <string>
#include <utility>

#include <capnp/message.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "schema/object_meta.hpp"
#include "schema/resource_list.hpp"
#include "schema/wire_fields.hpp"
#include "tests/support/json_decode_fixture.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

using ::testing::ElementsAre;
using ::testing::Pair;

StringMap adopted(std::vector<std::pair<std::string, std::string>> in, DuplicateKeys duplicates) {
  StringMap::sequence_type entries(in.begin(), in.end());
  StringMap out{{"stale", "entry"}};
  adopt_entries(out, std::move(entries), duplicates);
  return out;
}

TEST(FlatMap, entries_out_of_order_are_sorted_and_replace_the_contents) {
  EXPECT_THAT(adopted({{"b", "2"}, {"c", "3"}, {"a", "1"}}, DuplicateKeys::kFirstWins),
              ElementsAre(Pair("a", "1"), Pair("b", "2"), Pair("c", "3")));
  EXPECT_THAT(adopted({}, DuplicateKeys::kFirstWins), ElementsAre());
}

TEST(FlatMap, of_duplicate_keys_the_first_or_the_last_is_kept) {
  const std::vector<std::pair<std::string, std::string>> in{{"k", "1"}, {"a", "x"}, {"k", "2"}, {"k", "3"}};
  EXPECT_THAT(adopted(in, DuplicateKeys::kFirstWins), ElementsAre(Pair("a", "x"), Pair("k", "1")));
  EXPECT_THAT(adopted(in, DuplicateKeys::kLastWins), ElementsAre(Pair("a", "x"), Pair("k", "3")));
  // Sorted input with a duplicate next to its twin is no exception.
  EXPECT_THAT(adopted({{"a", "1"}, {"a", "2"}}, DuplicateKeys::kLastWins), ElementsAre(Pair("a", "2")));
}

TEST(FlatMap, json_labels_in_any_order_decode_sorted_and_the_last_duplicate_wins) {
  using decode_fixture::decode_unit;
  using decode_fixture::unit_json;
  const QueueUnit unit =
      decode_unit(unit_json("{}", "{}", R"({"name":"job","uid":"u1","labels":{"z":"1","b":"2","z":"3","a":"4"}})"));
  EXPECT_THAT(unit.metadata.labels, ElementsAre(Pair("a", "4"), Pair("b", "2"), Pair("z", "3")));
}

TEST(FlatMap, thousands_of_labels_in_reverse_order_decode_whole_and_in_order) {
  using decode_fixture::decode_unit;
  using decode_fixture::unit_json;
  std::string labels;
  constexpr int kLabels = 20'000;
  for (int i = kLabels - 1; i >= 0; --i) {
    if (!labels.empty()) labels += ',';
    labels += "\"k" + std::to_string(100'000 + i) + "\":\"v" + std::to_string(i) + "\"";
  }
  const QueueUnit unit = decode_unit(unit_json("{}", "{}", R"({"name":"job","uid":"u1","labels":{)" + labels + "}}"));
  ASSERT_EQ(unit.metadata.labels.size(), static_cast<size_t>(kLabels));
  EXPECT_EQ(unit.metadata.labels.begin()->first, "k100000");
  EXPECT_EQ(unit.metadata.labels.rbegin()->second, "v" + std::to_string(kLabels - 1));
}

TEST(FlatMap, wire_maps_out_of_order_read_sorted_and_the_first_duplicate_wins) {
  capnp::MallocMessageBuilder message;
  auto meta = message.initRoot<wire::ObjectMeta>();
  auto labels = meta.initLabels(3);
  const char* entries[3][2] = {{"z", "1"}, {"a", "2"}, {"z", "3"}};
  for (unsigned i = 0; i < 3; ++i) {
    labels[i].setKey(entries[i][0]);
    labels[i].setValue(entries[i][1]);
  }
  EXPECT_THAT(wire_fields::read_string_map(meta.asReader().getLabels()), ElementsAre(Pair("a", "2"), Pair("z", "1")));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
