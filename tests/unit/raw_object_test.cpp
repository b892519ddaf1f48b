#include "schema/raw_object.hpp"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/json_fixtures.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::read_fixture;

// SHA-256 test vectors (FIPS 180-2).
const std::string kEmptyDigest = "<redacted sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855>";
const std::string kAbcDigest = "<redacted sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad>";

std::string redact(const std::string& json) {
  Result<std::string> redacted = redact_json(json);
  EXPECT_TRUE(redacted.ok()) << redacted.message();
  return redacted.ok() ? *redacted : std::string();
}

TEST(RawObject, mode_parses_from_the_flag_text) {
  EXPECT_EQ(*parse_raw_object_mode("off"), RawObjectMode::kOff);
  EXPECT_EQ(*parse_raw_object_mode("redacted"), RawObjectMode::kRedacted);
  EXPECT_EQ(*parse_raw_object_mode("full"), RawObjectMode::kFull);
  Result<RawObjectMode> bad = parse_raw_object_mode("Full");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), R"(expected off, redacted or full, got "Full")");
  for (RawObjectMode mode : {RawObjectMode::kOff, RawObjectMode::kRedacted, RawObjectMode::kFull}) {
    EXPECT_EQ(*parse_raw_object_mode(raw_object_mode_name(mode)), mode);
  }
}

TEST(RawObject, marker_is_the_sha256_of_the_original_bytes) {
  EXPECT_EQ(redaction_marker(""), kEmptyDigest);
  EXPECT_EQ(redaction_marker("abc"), kAbcDigest);
  EXPECT_TRUE(is_redaction_marker(kAbcDigest));
  EXPECT_FALSE(
      is_redaction_marker("<redacted sha256:BA7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad>"));
  EXPECT_FALSE(is_redaction_marker("<redacted sha256:abc>"));
  EXPECT_FALSE(is_redaction_marker("abc"));
}

TEST(RawObject, env_value_is_replaced_by_its_digest) {
  EXPECT_EQ(redact(R"({"env":[{"name":"A","value":"abc"},{"name":"B","value":""}]})"),
            R"({"env":[{"name":"A","value":")" + kAbcDigest + R"("},{"name":"B","value":")" + kEmptyDigest + R"("}]})");
}

TEST(RawObject, digest_covers_the_unescaped_utf8_bytes) {
  // "a\u0062c" is the string abc; "\u00e9" is é, two UTF-8 bytes.
  EXPECT_EQ(redact(R"({"env":[{"value":"a\u0062c"}]})"), R"({"env":[{"value":")" + kAbcDigest + R"("}]})");
  EXPECT_EQ(redact(R"({"data":{"k":"\u00e9"}})"), R"({"data":{"k":")" + redaction_marker("é") + R"("}})");
}

TEST(RawObject, env_values_in_pod_templates_at_any_depth_are_redacted) {
  std::string redacted = redact(read_fixture("queue_unit_watch_event.json"));
  EXPECT_THAT(redacted, HasSubstr(R"({"name":"WANDB_API_KEY","value":")" +
                                  redaction_marker("wandb-7f3c2a91d04e4b6fa8e1c2d3b4a59687") + "\"}"));
  EXPECT_THAT(redacted, HasSubstr(R"({"name":"MASTER_PORT","value":")" + redaction_marker("23456") + "\"}"));
  EXPECT_THAT(redacted, Not(HasSubstr("wandb-7f3c2a91")));
  // Everything else is kept: the env references, the pod set, the status.
  EXPECT_THAT(redacted, HasSubstr(R"("valueFrom":{"secretKeyRef":{"key":"secret-key","name":"s3-credentials"}})"));
  EXPECT_THAT(redacted, HasSubstr(R"("phase":"Running")"));
}

TEST(RawObject, data_string_data_and_binary_data_entries_are_redacted_at_any_depth) {
  EXPECT_EQ(redact(R"({"a":[{"b":{"data":{"k":"abc"}}}],"stringData":{"s":"abc"},"x":{"binaryData":{"b":"abc"}}})"),
            R"({"a":[{"b":{"data":{"k":")" + kAbcDigest + R"("}}}],"stringData":{"s":")" + kAbcDigest +
                R"("},"x":{"binaryData":{"b":")" + kAbcDigest + R"("}}})");
}

TEST(RawObject, a_non_string_value_is_hashed_over_its_compact_json) {
  EXPECT_EQ(redact(R"({"data":{"n":42,"o":{ "a" : [1, true] },"f":1.50}})"),
            R"({"data":{"n":")" + redaction_marker("42") + R"(","o":")" + redaction_marker(R"({"a":[1,true]})") +
                R"(","f":")" + redaction_marker("1.5") + R"("}})");
  EXPECT_EQ(redact(R"({"env":[{"value":7}]})"), R"({"env":[{"value":")" + redaction_marker("7") + R"("}]})");
}

TEST(RawObject, secrets_nested_inside_a_redacted_value_disappear_with_it) {
  std::string redacted = redact(R"({"data":{"k":{"env":[{"value":"inner-secret"}]}}})");
  EXPECT_THAT(redacted, Not(HasSubstr("inner-secret")));
}

TEST(RawObject, null_values_stay_null) {
  EXPECT_EQ(redact(R"({"env":[{"name":"A","value":null}],"data":{"k":null}})"),
            R"({"env":[{"name":"A","value":null}],"data":{"k":null}})");
}

TEST(RawObject, redacting_twice_changes_nothing_further) {
  std::string once = redact(read_fixture("queue_unit_watch_event.json"));
  EXPECT_EQ(redact(once), once);
  std::string nested = redact(R"({"data":{"a":"x","b":{"c":1}},"env":[{"value":"y"}]})");
  EXPECT_EQ(redact(nested), nested);
}

TEST(RawObject, shapes_that_are_not_secret_maps_are_kept) {
  const std::string kept =
      R"({"data":"plain","stringData":["a"],"env":{"value":"x"},"labels":{"env":"prod","data":"x"},)"
      R"("env2":[{"value":"x"}],"x":{"env":["s",1,null]}})";
  EXPECT_EQ(redact(kept), kept);
}

TEST(RawObject, everything_but_the_secrets_keeps_its_bytes_as_received) {
  const std::string text = "{ \"z\" : 1 ,\n \"a\" : [ 1.0 , \"\\u0001\\n\" , false ], \"m\" : {} }";
  EXPECT_EQ(redact(text), text);
  EXPECT_EQ(redact("{ \"env\" : [ { \"value\" : \"abc\" , \"name\":\"x\\\"y\" } ] ,\"n\":1e3}"),
            "{ \"env\" : [ { \"value\" : \"" + kAbcDigest + "\" , \"name\":\"x\\\"y\" } ] ,\"n\":1e3}");
}

TEST(RawObject, escaped_keys_and_quotes_inside_strings_do_not_hide_a_secret) {
  // "\u0065nv" is the key env; a quoted "env" inside a string value is no key.
  EXPECT_EQ(redact(R"({"\u0065nv":[{"value":"abc"}],"d":"say \"env\":[{\"value\":\"x\"}]"})"),
            R"({"\u0065nv":[{"value":")" + kAbcDigest + R"("}],"d":"say \"env\":[{\"value\":\"x\"}]"})");
  EXPECT_EQ(redact(R"({"s":"a\\","data":{"k\\":"abc"}})"), R"({"s":"a\\","data":{"k\\":")" + kAbcDigest + R"("}})");
}

TEST(RawObject, a_key_is_a_name_between_quotes_no_backslash_escapes) {
  // Without any \u escape the splice starts at each key named env, data, stringData or
  // binaryData: a name inside a string, a value or a longer key must not start it.
  EXPECT_EQ(redact(R"({"d":"say \"env\":[{\"value\":\"x\"}]","env":[{"value":"abc"}]})"),
            R"({"d":"say \"env\":[{\"value\":\"x\"}]","env":[{"value":")" + kAbcDigest + R"("}]})");
  const std::string kept =
      R"({"d":"\\\"data\":{\"k\":\"x\"}","k":"data","v":"f:env","x":{"f:env":[{"value":"x"}],"metadata":{}}})";
  EXPECT_EQ(redact(kept), kept);
  const std::string tab = "\t";  // a literal tab in a raw string would throw clang-format's columns off
  EXPECT_EQ(redact(R"({"s":"a\\","data" :{"k":"abc"},"t":"\\\\","stringData")" + tab + R"(:{"k":"abc"}})"),
            R"({"s":"a\\","data" :{"k":")" + kAbcDigest + R"("},"t":"\\\\","stringData")" + tab + R"(:{"k":")" +
                kAbcDigest + R"("}})");
  // A kubectl last-applied annotation is a string: what it quotes stays as it is.
  const std::string applied =
      R"({"metadata":{"annotations":{"a":"{\"spec\":{\"env\":[{\"value\":\"x\"}]}}"}},"binaryData":{"b":"abc"}})";
  EXPECT_EQ(redact(applied), R"({"metadata":{"annotations":{"a":"{\"spec\":{\"env\":[{\"value\":\"x\"}]}}"}},)"
                             R"("binaryData":{"b":")" +
                                 kAbcDigest + R"("}})");
}

TEST(RawObject, malformed_input_is_an_error) {
  EXPECT_FALSE(redact_json(R"({"env":[)").ok());
  EXPECT_FALSE(redact_json("\"\xff\"").ok());
  EXPECT_FALSE(redact_json(std::string(1000, '[') + std::string(1000, ']')).ok());
  EXPECT_EQ(*redact_json("[]"), "[]");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
