// The raw JSON the decoder keeps per --journal-raw-objects: none when off, the object's bytes
// exactly when full, env values of pod templates hidden when redacted; and watch event type names.
#include <string>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "schema/json_decode.hpp"
#include "schema/quantity.hpp"
#include "tests/support/json_decode_fixture.hpp"
#include "tests/support/json_fixtures.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

using namespace decode_fixture;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::read_fixture;
using ::testing::SizeIs;

TEST(JsonDecode, raw_json_is_empty_when_off) {
  JsonDecoder decoder;
  Result<WatchEvent> event =
      decoder.decode_watch_event(read_fixture("queue_unit_watch_event.json"), RawObjectMode::kOff);
  ASSERT_TRUE(event.ok());
  EXPECT_EQ(event->raw_json, "");
}

TEST(JsonDecode, full_raw_json_keeps_the_object_bytes_exactly) {
  JsonDecoder decoder;
  const std::string object =
      R"({ "kind" : "Queue",  "metadata":{"name":"q","uid":"u"},"spec":{"priority":1,"weight":1.0}} )";
  Result<WatchEvent> event =
      decoder.decode_watch_event("{\n \"type\" : \"ADDED\", \"object\" :" + object + ",\"x\":1}", RawObjectMode::kFull);
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_EQ(event->raw_json, object.substr(0, object.size() - 1));

  std::string fixture = read_fixture("queue_unit_watch_event.json");
  event = decoder.decode_watch_event(fixture, RawObjectMode::kFull);
  ASSERT_TRUE(event.ok());
  std::string expected = fixture.substr(std::string(R"({"type":"MODIFIED","object":)").size());
  EXPECT_EQ(event->raw_json, expected.substr(0, expected.size() - 2));  // without "}\n"

  Result<DecodedObject> decoded = decoder.decode_object(object, RawObjectMode::kFull);
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(decoded->raw_json, object);
}

TEST(JsonDecode, full_raw_json_is_the_member_the_parser_decoded_even_with_escaped_keys) {
  JsonDecoder decoder;
  const std::string first = R"({"kind":"Queue","metadata":{"name":"first","uid":"1"}})";
  const std::string second = R"({"kind":"Queue","metadata":{"name":"second","uid":"2"}})";
  Result<WatchEvent> event = decoder.decode_watch_event(
      R"({"t\u0079pe":"ADDED","obj\u0065ct":)" + first + R"(,"object":)" + second + "}", RawObjectMode::kFull);
  ASSERT_TRUE(event.ok()) << event.message();
  EXPECT_EQ(meta_of(*event->object).name, "first");
  EXPECT_EQ(event->raw_json, first);
}

TEST(JsonDecode, full_raw_json_of_list_items_keeps_each_item_exactly) {
  JsonDecoder decoder;
  const std::string first = R"({"metadata":{"name":"a","uid":"1"},"spec":{"note":"]}\"{"}})";
  const std::string second = R"({ "metadata" : { "name" : "b", "uid" : "2" } })";
  Result<ListPage> page = decoder.decode_list(R"({"items": [ )" + first + " ,\n" + second + R"( ],"metadata":{}})",
                                              ObjectKind::kQueue, RawObjectMode::kFull);
  ASSERT_TRUE(page.ok()) << page.message();
  ASSERT_THAT(page->items, SizeIs(2));
  EXPECT_EQ(page->items[0].raw_json, first);
  EXPECT_EQ(page->items[1].raw_json, second);
}

TEST(JsonDecode, redacted_raw_json_hides_env_values_of_pod_templates) {
  JsonDecoder decoder;
  Result<WatchEvent> event =
      decoder.decode_watch_event(read_fixture("queue_unit_watch_event.json"), RawObjectMode::kRedacted);
  ASSERT_TRUE(event.ok());
  EXPECT_THAT(event->raw_json, AllOf(HasSubstr(R"("name":"WANDB_API_KEY","value":"<redacted hmac-sha256:)"),
                                     HasSubstr(R"("valueFrom":{"secretKeyRef":{"key":"secret-key")"),
                                     HasSubstr(R"("apiVersion":"scheduling.x-k8s.io/v1alpha1","kind":"QueueUnit")")));
  EXPECT_THAT(event->raw_json, ::testing::Not(HasSubstr("wandb-7f3c2a91")));
  EXPECT_THAT(event->raw_json, ::testing::Not(HasSubstr(R"("value":"23456")")));
}

TEST(JsonDecode, raw_json_of_a_list_item_is_redacted_too) {
  JsonDecoder decoder;
  Result<ListPage> page =
      decoder.decode_list(read_fixture("queue_unit_list.json"), ObjectKind::kQueueUnit, RawObjectMode::kRedacted);
  ASSERT_TRUE(page.ok());
  ASSERT_THAT(page->items, SizeIs(2));
  for (const DecodedObject& item : page->items) {
    EXPECT_THAT(item.raw_json, HasSubstr("<redacted hmac-sha256:"));
    EXPECT_THAT(item.raw_json, ::testing::Not(HasSubstr("wandb-7f3c2a91")));
  }
}

TEST(JsonDecode, watch_event_type_names_round_trip) {
  for (WatchEventType type : {WatchEventType::kAdded, WatchEventType::kModified, WatchEventType::kDeleted,
                              WatchEventType::kBookmark, WatchEventType::kError}) {
    Result<WatchEventType> parsed = parse_watch_event_type(watch_event_type_name(type));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, type);
  }
  EXPECT_FALSE(parse_watch_event_type("added").ok());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
