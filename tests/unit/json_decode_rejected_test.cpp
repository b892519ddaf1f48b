// What the JSON decoder rejects, each error naming the JSON path and the value: malformed or
// non-object documents, invalid UTF-8, nesting and size over the caps, wrong types, negative counts,
// numbers out of range, overlong names, missing uid or name.
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

TEST(JsonDecode, malformed_json_is_an_error) {
  EXPECT_THAT(decode_error(R"({"kind":"Queue",)"), HasSubstr("object: malformed JSON: "));
  EXPECT_THAT(decode_error(""), HasSubstr("object: malformed JSON"));
  EXPECT_THAT(decode_error("[1,2"), HasSubstr("object: malformed JSON"));
}

TEST(JsonDecode, a_document_that_is_not_an_object_is_an_error) {
  EXPECT_EQ(decode_error("[1,2]"), "expected an object, got an array");
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event("42", RawObjectMode::kOff);
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.message(), "watch event: expected an object, got 42");
}

TEST(JsonDecode, invalid_utf8_is_an_error) {
  EXPECT_EQ(decode_error(unit_json("{}", "{}", "{\"name\":\"a\xff\",\"uid\":\"u\"}")), "object: not valid UTF-8");
  EXPECT_EQ(decode_error(unit_json("{}", "{}", "{\"name\":\"\xc0\xaf\",\"uid\":\"u\"}")), "object: not valid UTF-8");
}

TEST(JsonDecode, nesting_deeper_than_the_cap_is_an_error) {
  std::string deep = std::string(200, '[') + std::string(200, ']');
  EXPECT_EQ(decode_error(unit_json(R"({"x":)" + deep + "}")), "object: nested deeper than 128 levels");
  JsonDecoder shallow(DecodeLimits{.max_depth = 4});
  EXPECT_FALSE(shallow.decode_object(read_fixture("queue.json"), RawObjectMode::kOff).ok());
}

TEST(JsonDecode, object_over_the_size_cap_is_an_error) {
  std::string huge = unit_json(R"({"pad":")" + std::string(5 << 20, 'a') + R"("})");
  EXPECT_EQ(decode_error(huge), "object: " + std::to_string(huge.size()) + " bytes exceed the limit of 4194304 bytes");
}

TEST(JsonDecode, objects_as_large_as_the_api_server_allows_decode) {
  // Beyond the ~1.5 MB the API server stores: managedFields of 2.8 MB.
  std::string managed = R"({"manager":"m","fieldsV1":{"f:x":")" + std::string(1'400'000, 'f') + R"("}})";
  std::string json = unit_json(R"({"priority":1})", "{}",
                               R"({"name":"big","uid":"u","managedFields":[)" + managed + "," + managed + "]}");
  ASSERT_GT(json.size(), 2'800'000u);
  EXPECT_EQ(decode_unit(json).spec.priority, 1);
}

TEST(JsonDecode, wrongly_typed_field_is_an_error_naming_path_and_value) {
  EXPECT_EQ(decode_error(unit_json(R"({"priority":"high"})")),
            R"(QueueUnit team-a/job: spec.priority: expected an integer from -2147483648 to 2147483647, got "high")");
  EXPECT_EQ(decode_error(unit_json(R"({"active":"yes"})")),
            R"(QueueUnit team-a/job: spec.active: expected true or false, got "yes")");
  EXPECT_EQ(decode_error(unit_json(R"({"podSet":{"name":"w"}})")),
            "QueueUnit team-a/job: spec.podSet: expected an array, got an object");
  EXPECT_EQ(decode_error(unit_json(R"({"resource":["cpu"]})")),
            "QueueUnit team-a/job: spec.resource: expected an object, got an array");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"lastUpdateTime":"yesterday"})")),
            R"(QueueUnit team-a/job: status.lastUpdateTime: expected an RFC 3339 time, got "yesterday")");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"admissions":[{"name":"w","replicas":1.5}]})")),
            "QueueUnit team-a/job: status.admissions[0].replicas: expected a non-negative integer, got 1.5");
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"name":"job","uid":"u","labels":{"a":1}})")),
            R"(QueueUnit: metadata.labels["a"]: expected a string, got 1)");
  EXPECT_EQ(decode_error(unit_json("7")), "QueueUnit team-a/job: spec: expected an object, got 7");
}

TEST(JsonDecode, negative_counts_are_errors_naming_the_path) {
  EXPECT_EQ(decode_error(unit_json(R"({"podSet":[{"name":"a","count":1},{"name":"b","count":-3}]})")),
            "QueueUnit team-a/job: spec.podSet[1].count: expected a non-negative integer, got -3");
  EXPECT_EQ(decode_error(unit_json(R"({"podSet":[{"name":"a","count":1,"minCount":-1}]})")),
            "QueueUnit team-a/job: spec.podSet[0].minCount: expected a non-negative integer, got -1");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"admissions":[{"name":"w","replicas":-2}]})")),
            "QueueUnit team-a/job: status.admissions[0].replicas: expected a non-negative integer, got -2");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"admissions":[{"name":"w","running":-1}]})")),
            "QueueUnit team-a/job: status.admissions[0].running: expected a non-negative integer, got -1");
  EXPECT_EQ(
      decode_error(unit_json("{}", R"({"admissions":[{"name":"w","reclaimState":{"replicas":-1}}]})")),
      "QueueUnit team-a/job: status.admissions[0].reclaimState.replicas: expected a non-negative integer, got -1");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"attempts":-1})")),
            "QueueUnit team-a/job: status.attempts: expected a non-negative integer, got -1");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"podState":{"running":-4}})")),
            "QueueUnit team-a/job: status.podState.running: expected a non-negative integer, got -4");
  EXPECT_EQ(decode_error(unit_json("{}", R"({"attempts":18446744073709551615})")),
            "QueueUnit team-a/job: status.attempts: expected a non-negative integer, got 18446744073709551615");
}

TEST(JsonDecode, integers_beyond_int32_are_errors) {
  EXPECT_EQ(decode_error(unit_json(R"({"priority":2147483648})")),
            "QueueUnit team-a/job: spec.priority: expected an integer from -2147483648 to 2147483647, got 2147483648");
  EXPECT_EQ(decode_error(unit_json(R"({"maximumExecutionTimeSeconds":-2147483649})")),
            "QueueUnit team-a/job: spec.maximumExecutionTimeSeconds: expected an integer from -2147483648 to "
            "2147483647, got -2147483649");
  EXPECT_EQ(decode_unit(unit_json(R"({"priority":-2147483648})")).spec.priority, -2147483648);
}

TEST(JsonDecode, numbers_json_cannot_hold_are_errors) {
  EXPECT_THAT(decode_error(unit_json(R"({"priority":123456789012345678901234567890})")), HasSubstr("malformed JSON"));
  EXPECT_THAT(decode_error(unit_json(R"({"priority":1e400})")), HasSubstr("malformed JSON"));
}

TEST(JsonDecode, overlong_names_are_errors) {
  std::string name(254, 'n');
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"name":")" + name + R"(","uid":"u"})")),
            "QueueUnit: metadata.name: expected at most 253 bytes, got 254 bytes");
  std::string huge(3 << 20, 'q');
  EXPECT_EQ(decode_error(unit_json(R"({"queue":")" + huge + R"("})")),
            "QueueUnit team-a/job: spec.queue: expected at most 253 bytes, got 3145728 bytes");
  EXPECT_EQ(decode_error(unit_json(R"({"resource":{")" + std::string(400, 'r') + R"(":"1"}})")),
            R"(QueueUnit team-a/job: spec.resource[")" + std::string(64, 'r') +
                R"(…" (400 bytes)]: key is too long: expected at most 317 bytes, got 400 bytes)");
}

TEST(JsonDecode, overlong_label_values_and_annotations_are_errors) {
  EXPECT_EQ(decode_error(
                unit_json("{}", "{}", R"({"name":"j","uid":"u","labels":{"a":")" + std::string(5000, 'v') + R"("}})")),
            R"(QueueUnit: metadata.labels["a"]: expected at most 4096 bytes, got 5000 bytes)");
  std::string half(200 * 1024, 'v');
  EXPECT_EQ(decode_error(unit_json(
                "{}", "{}", R"({"name":"j","uid":"u","annotations":{"a":")" + half + R"(","b":")" + half + R"("}})")),
            "QueueUnit: metadata.annotations: expected at most 262144 bytes of keys and values, got 409602 bytes");
}

TEST(JsonDecode, missing_uid_is_an_error_naming_the_field) {
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"name":"job","namespace":"team-a"})")),
            "QueueUnit team-a/job: metadata.uid: required, missing or empty");
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"name":"job","uid":""})")),
            "QueueUnit job: metadata.uid: required, missing or empty");
}

TEST(JsonDecode, missing_name_is_an_error_naming_the_field) {
  EXPECT_EQ(decode_error(unit_json("{}", "{}", R"({"uid":"u"})")),
            "QueueUnit: metadata.name: required, missing or empty");
  EXPECT_EQ(decode_error(R"({"kind":"Queue","apiVersion":"scheduling.x-k8s.io/v1alpha1"})"),
            "Queue: metadata.name: required, missing or empty");
}

TEST(JsonDecode, watch_event_object_errors_name_the_object) {
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event(
      R"({"type":"ADDED","object":)" + unit_json(R"({"podSet":[{"name":"a","count":-3}]})") + "}", RawObjectMode::kOff);
  ASSERT_FALSE(event.ok());
  EXPECT_EQ(event.message(), "QueueUnit team-a/job: spec.podSet[0].count: expected a non-negative integer, got -3");
}

TEST(JsonDecode, one_decoder_decodes_many_documents_independently) {
  JsonDecoder decoder;
  std::string unit = read_fixture("queue_unit_watch_event.json");
  for (int round = 0; round < 3; ++round) {
    EXPECT_FALSE(decoder.decode_watch_event("{\"type\":", RawObjectMode::kFull).ok());
    EXPECT_FALSE(decoder.decode_object(std::string(300, '['), RawObjectMode::kFull).ok());
    Result<WatchEvent> event = decoder.decode_watch_event(unit, RawObjectMode::kRedacted);
    ASSERT_TRUE(event.ok()) << event.message();
    EXPECT_EQ(meta_of(*event->object).name, "resnet50-train");
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
