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

// The key 00 01 02 … 1f; HMAC-SHA256 under it of "" and of "abc".
const std::string kTestKey = [] {
  std::string key;
  for (int i = 0; i < 32; ++i) key += static_cast<char>(i);
  return key;
}();
const std::string kEmptyDigest =
    "<redacted hmac-sha256:d38b42096d80f45f826b44a9d5607de72496a415d3f4a1a8c88e3bb9da8dc1cb>";
const std::string kAbcDigest =
    "<redacted hmac-sha256:f0133729c4163dede81e21cd47839256da58171238c8a0d874397c73b14e1e47>";

class RawObject : public ::testing::Test {
 protected:
  void SetUp() override { install_redaction_key(kTestKey); }
};

std::string redact(const std::string& json) {
  Result<std::string> redacted = redact_json(json);
  EXPECT_TRUE(redacted.ok()) << redacted.message();
  return redacted.ok() ? *redacted : std::string();
}

TEST_F(RawObject, mode_parses_from_the_flag_text) {
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

TEST_F(RawObject, marker_is_the_hmac_sha256_of_the_original_bytes_under_the_journal_key) {
  EXPECT_EQ(redaction_marker(""), kEmptyDigest);
  EXPECT_EQ(redaction_marker("abc"), kAbcDigest);
  EXPECT_TRUE(is_redaction_marker(kAbcDigest));
  EXPECT_FALSE(
      is_redaction_marker("<redacted hmac-sha256:F0133729c4163dede81e21cd47839256da58171238c8a0d874397c73b14e1e47>"));
  EXPECT_FALSE(is_redaction_marker("<redacted hmac-sha256:abc>"));
  EXPECT_FALSE(is_redaction_marker("abc"));
}

TEST_F(RawObject, another_key_gives_other_markers_of_the_same_values) {
  install_redaction_key(std::string(32, 'k'));
  EXPECT_NE(redaction_marker("abc"), kAbcDigest);
  EXPECT_TRUE(is_redaction_marker(redaction_marker("abc")));
  install_redaction_key(kTestKey);
  EXPECT_EQ(redaction_marker("abc"), kAbcDigest);
}

TEST_F(RawObject, markers_of_journals_written_before_the_key_stay_markers) {
  const std::string unkeyed = "<redacted sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad>";
  EXPECT_TRUE(is_redaction_marker(unkeyed));
  EXPECT_FALSE(
      is_redaction_marker("<redacted sha256:BA7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad>"));
  EXPECT_EQ(redact(R"({"env":[{"value":")" + unkeyed + R"("}]})"), R"({"env":[{"value":")" + unkeyed + R"("}]})");
}

TEST_F(RawObject, last_applied_configuration_is_redacted_inside) {
  // kubectl apply of a Secret-like object: the annotation holds the object as applied, escaped.
  const std::string applied = R"({\"apiVersion\":\"v1\",\"data\":{\"password\":\"abc\"},)"
                              R"(\"spec\":{\"env\":[{\"name\":\"K\",\"value\":\"abc\"}]}})";
  const std::string json =
      R"({"metadata":{"name":"x","annotations":{"kubectl.kubernetes.io/last-applied-configuration":")" + applied +
      R"(\n","team":"a"}},"data":{"password":"abc"}})";
  const std::string redacted = redact(json);
  EXPECT_THAT(redacted, Not(HasSubstr(R"(\"abc\")")));
  EXPECT_THAT(redacted, HasSubstr(R"(\"password\":\")" + kAbcDigest + R"(\")"));
  EXPECT_THAT(redacted, HasSubstr(R"(\"value\":\")" + kAbcDigest + R"(\")"));
  EXPECT_THAT(redacted, HasSubstr(R"("team":"a")"));
  EXPECT_THAT(redacted, HasSubstr(R"("data":{"password":")" + kAbcDigest + R"("})"));
  EXPECT_EQ(redact(redacted), redacted);
}

TEST_F(RawObject, annotations_that_hold_no_json_document_are_kept) {
  const std::string json =
      R"({"metadata":{"annotations":{"a":"{not json","b":"42","c":"{\"name\":\"x\"}","d":"[1,2]"}}})";
  EXPECT_EQ(redact(json), json);
}

TEST_F(RawObject, last_applied_configuration_is_redacted_on_the_escaped_path_too) {
  // A \u escape elsewhere in the text takes the walk from the root instead of the key search.
  const std::string json =
      R"({"metadata":{"name":"\u0078","annotations":{"kubectl.kubernetes.io/last-applied-configuration":)"
      R"("{\"data\":{\"k\":\"abc\"}}"}}})";
  EXPECT_EQ(redact(json), R"({"metadata":{"name":"\u0078","annotations":{"kubectl.kubernetes.io/)"
                          R"(last-applied-configuration":"{\"data\":{\"k\":\")" +
                              kAbcDigest + R"(\"}}"}}})");
}

TEST_F(RawObject, an_annotations_key_inside_a_secret_value_goes_with_it) {
  const std::string json = R"({"data":{"k":{"annotations":{"a":"{\"data\":{\"k\":\"abc\"}}"}}}})";
  const std::string redacted = redact(json);
  EXPECT_THAT(redacted, Not(HasSubstr("annotations")));
  EXPECT_TRUE(redact_json(redacted).ok());
}

TEST_F(RawObject, env_value_is_replaced_by_its_digest) {
  EXPECT_EQ(redact(R"({"env":[{"name":"A","value":"abc"},{"name":"B","value":""}]})"),
            R"({"env":[{"name":"A","value":")" + kAbcDigest + R"("},{"name":"B","value":")" + kEmptyDigest + R"("}]})");
}

TEST_F(RawObject, digest_covers_the_unescaped_utf8_bytes) {
  // "a\u0062c" is the string abc; "\u00e9" is é, two UTF-8 bytes.
  EXPECT_EQ(redact(R"({"env":[{"value":"a\u0062c"}]})"), R"({"env":[{"value":")" + kAbcDigest + R"("}]})");
  EXPECT_EQ(redact(R"({"data":{"k":"\u00e9"}})"), R"({"data":{"k":")" + redaction_marker("é") + R"("}})");
}

TEST_F(RawObject, env_values_in_pod_templates_at_any_depth_are_redacted) {
  std::string redacted = redact(read_fixture("queue_unit_watch_event.json"));
  EXPECT_THAT(redacted, HasSubstr(R"({"name":"WANDB_API_KEY","value":")" +
                                  redaction_marker("wandb-7f3c2a91d04e4b6fa8e1c2d3b4a59687") + "\"}"));
  EXPECT_THAT(redacted, HasSubstr(R"({"name":"MASTER_PORT","value":")" + redaction_marker("23456") + "\"}"));
  EXPECT_THAT(redacted, Not(HasSubstr("wandb-7f3c2a91")));
  // Everything else is kept: the env references, the pod set, the status.
  EXPECT_THAT(redacted, HasSubstr(R"("valueFrom":{"secretKeyRef":{"key":"secret-key","name":"s3-credentials"}})"));
  EXPECT_THAT(redacted, HasSubstr(R"("phase":"Running")"));
}

TEST_F(RawObject, data_string_data_and_binary_data_entries_are_redacted_at_any_depth) {
  EXPECT_EQ(redact(R"({"a":[{"b":{"data":{"k":"abc"}}}],"stringData":{"s":"abc"},"x":{"binaryData":{"b":"abc"}}})"),
            R"({"a":[{"b":{"data":{"k":")" + kAbcDigest + R"("}}}],"stringData":{"s":")" + kAbcDigest +
                R"("},"x":{"binaryData":{"b":")" + kAbcDigest + R"("}}})");
}

TEST_F(RawObject, a_non_string_value_is_hashed_over_its_compact_json) {
  EXPECT_EQ(redact(R"({"data":{"n":42,"o":{ "a" : [1, true] },"f":1.50}})"),
            R"({"data":{"n":")" + redaction_marker("42") + R"(","o":")" + redaction_marker(R"({"a":[1,true]})") +
                R"(","f":")" + redaction_marker("1.5") + R"("}})");
  EXPECT_EQ(redact(R"({"env":[{"value":7}]})"), R"({"env":[{"value":")" + redaction_marker("7") + R"("}]})");
}

TEST_F(RawObject, secrets_nested_inside_a_redacted_value_disappear_with_it) {
  std::string redacted = redact(R"({"data":{"k":{"env":[{"value":"inner-secret"}]}}})");
  EXPECT_THAT(redacted, Not(HasSubstr("inner-secret")));
}

TEST_F(RawObject, null_values_stay_null) {
  EXPECT_EQ(redact(R"({"env":[{"name":"A","value":null}],"data":{"k":null}})"),
            R"({"env":[{"name":"A","value":null}],"data":{"k":null}})");
}

TEST_F(RawObject, redacting_twice_changes_nothing_further) {
  std::string once = redact(read_fixture("queue_unit_watch_event.json"));
  EXPECT_EQ(redact(once), once);
  std::string nested = redact(R"({"data":{"a":"x","b":{"c":1}},"env":[{"value":"y"}]})");
  EXPECT_EQ(redact(nested), nested);
}

TEST_F(RawObject, shapes_that_are_not_secret_maps_are_kept) {
  const std::string kept =
      R"({"data":"plain","stringData":["a"],"env":{"value":"x"},"labels":{"env":"prod","data":"x"},)"
      R"("env2":[{"value":"x"}],"x":{"env":["s",1,null]}})";
  EXPECT_EQ(redact(kept), kept);
}

TEST_F(RawObject, everything_but_the_secrets_keeps_its_bytes_as_received) {
  const std::string text = "{ \"z\" : 1 ,\n \"a\" : [ 1.0 , \"\\u0001\\n\" , false ], \"m\" : {} }";
  EXPECT_EQ(redact(text), text);
  EXPECT_EQ(redact("{ \"env\" : [ { \"value\" : \"abc\" , \"name\":\"x\\\"y\" } ] ,\"n\":1e3}"),
            "{ \"env\" : [ { \"value\" : \"" + kAbcDigest + "\" , \"name\":\"x\\\"y\" } ] ,\"n\":1e3}");
}

TEST_F(RawObject, escaped_keys_and_quotes_inside_strings_do_not_hide_a_secret) {
  // "\u0065nv" is the key env; a quoted "env" inside a string value is no key.
  EXPECT_EQ(redact(R"({"\u0065nv":[{"value":"abc"}],"d":"say \"env\":[{\"value\":\"x\"}]"})"),
            R"({"\u0065nv":[{"value":")" + kAbcDigest + R"("}],"d":"say \"env\":[{\"value\":\"x\"}]"})");
  EXPECT_EQ(redact(R"({"s":"a\\","data":{"k\\":"abc"}})"), R"({"s":"a\\","data":{"k\\":")" + kAbcDigest + R"("}})");
}

TEST_F(RawObject, a_key_is_a_name_between_quotes_no_backslash_escapes) {
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
  // A kubectl last-applied annotation is a string: the key search does not look into it, the
  // annotation's own redaction does (last_applied_configuration_is_redacted_inside).
  const std::string applied =
      R"({"metadata":{"annotations":{"a":"{\"spec\":{\"env\":[{\"value\":\"x\"}]}}"}},"binaryData":{"b":"abc"}})";
  EXPECT_EQ(redact(applied), R"({"metadata":{"annotations":{"a":"{\"spec\":{\"env\":[{\"value\":\")" +
                                 redaction_marker("x") + R"(\"}]}}"}},"binaryData":{"b":")" + kAbcDigest + R"("}})");
}

TEST_F(RawObject, malformed_input_is_an_error) {
  EXPECT_FALSE(redact_json(R"({"env":[)").ok());
  EXPECT_FALSE(redact_json("\"\xff\"").ok());
  EXPECT_FALSE(redact_json(std::string(1000, '[') + std::string(1000, ']')).ok());
  EXPECT_EQ(*redact_json("[]"), "[]");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
