// Invariants of the JSON codecs and the raw-object redaction, one per property.
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include "schema/json_decode.hpp"
#include "schema/json_dom_writer.hpp"
#include "schema/json_encode.hpp"
#include "schema/quantity.hpp"
#include "schema/raw_object.hpp"
#include "tests/support/json_fixtures.hpp"
#include "tests/support/model_generators.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

constexpr RawObjectMode kModes[] = {RawObjectMode::kOff, RawObjectMode::kRedacted, RawObjectMode::kFull};

// The decoder rejects what the API server never sends: objects without uid, negative counts.
// The shared generators produce both, so objects are moved into the accepted domain first.
int64_t non_negative(int64_t n) {
  return n < 0 ? -(n + 1) : n;
}

void make_decodable(QueueUnit& unit) {
  for (PodSet& pod_set : unit.spec.pod_set) {
    pod_set.count = non_negative(pod_set.count);
    if (pod_set.min_count) pod_set.min_count = non_negative(*pod_set.min_count);
  }
  QueueUnitStatus& status = unit.status;
  status.attempts = non_negative(status.attempts);
  for (Admission& admission : status.admissions) {
    admission.replicas = non_negative(admission.replicas);
    admission.running = non_negative(admission.running);
    if (admission.reclaim_state) admission.reclaim_state->replicas = non_negative(admission.reclaim_state->replicas);
  }
  if (status.pod_state) {
    status.pod_state->running = non_negative(status.pod_state->running);
    status.pod_state->pending = non_negative(status.pod_state->pending);
  }
}
void make_decodable(Queue&) {}
void make_decodable(ElasticQuota&) {}

WatchedObject decodable(WatchedObject object) {
  std::visit(
      [](auto& typed) {
        if (typed.metadata.uid.empty()) typed.metadata.uid = "00000000-0000-4000-8000-000000000000";
        make_decodable(typed);
      },
      object);
  return object;
}

// Decodes with every entry point and mode; whatever decodes must survive encode → decode.
void decode_everything(const std::string& bytes) {
  JsonDecoder decoder;
  for (RawObjectMode mode : kModes) {
    Result<DecodedObject> object = decoder.decode_object(bytes, mode);
    if (object.ok()) {
      Result<DecodedObject> again = decoder.decode_object(encode_json(object->object), RawObjectMode::kOff);
      RC_ASSERT(again.ok());
      RC_ASSERT(again->object == object->object);
    }
    Result<WatchEvent> event = decoder.decode_watch_event(bytes, mode);
    if (event.ok() && event->object && event->type != WatchEventType::kBookmark) {
      Result<WatchEvent> again =
          decoder.decode_watch_event(encode_watch_event(event->type, *event->object), RawObjectMode::kOff);
      RC_ASSERT(again.ok());
      RC_ASSERT(again->object == event->object);
    }
    for (ObjectKind kind : {ObjectKind::kQueueUnit, ObjectKind::kQueue, ObjectKind::kElasticQuota}) {
      (void)decoder.decode_list(bytes, kind, mode);
      (void)decoder.decode_object(bytes, kind, mode);
    }
  }
}

// Byte-level damage of the kinds that reach a decoder: truncation, flipped bytes, lost or
// repeated spans, and JSON tokens in the wrong place.
std::string mutate(std::string bytes) {
  const std::vector<std::string> tokens = {"{",
                                           "}",
                                           "[",
                                           "]",
                                           ",",
                                           ":",
                                           "\"",
                                           "null",
                                           "-1",
                                           "1e999",
                                           "\\",
                                           "\xff",
                                           "\"count\":-3",
                                           "\"priority\":\"high\"",
                                           "\xc3"};
  int mutations = *rc::gen::inRange(1, 6);
  for (int i = 0; i < mutations && !bytes.empty(); ++i) {
    size_t at = *rc::gen::inRange<size_t>(0, bytes.size());
    switch (*rc::gen::inRange(0, 5)) {
      case 0:
        bytes.resize(at);
        break;
      case 1:
        bytes[at] = static_cast<char>(*rc::gen::arbitrary<uint8_t>());
        break;
      case 2:
        bytes.erase(at, *rc::gen::inRange<size_t>(1, 64));
        break;
      case 3:
        bytes.insert(at, bytes.substr(at, *rc::gen::inRange<size_t>(1, 64)));
        break;
      default:
        bytes.insert(at, *rc::gen::elementOf(tokens));
        break;
    }
  }
  return bytes;
}

void collect_values(rapidjson::Value& value, std::vector<rapidjson::Value*>& out) {
  out.push_back(&value);
  if (value.IsObject()) {
    for (auto& member : value.GetObject()) collect_values(member.value, out);
  } else if (value.IsArray()) {
    for (auto& item : value.GetArray()) collect_values(item, out);
  }
}

// Valid JSON with some values replaced by ones of the wrong type or range, so that decoding
// gets past the parser into the typed checks.
std::string mutate_values(const std::string& json) {
  rapidjson::Document document;
  document.Parse(json.c_str(), json.size());
  if (document.HasParseError()) return json;
  std::vector<rapidjson::Value*> values;
  collect_values(document, values);
  int mutations = *rc::gen::inRange(1, 4);
  for (int i = 0; i < mutations; ++i) {
    rapidjson::Value& target = *values[*rc::gen::inRange<size_t>(0, values.size())];
    std::string replacement = *rc::gen::element<std::string>(
        "null", "-3", "0", "\"high\"", "2147483648", "9223372036854775807", "{}", "[]", "\"1.5Gi\"", "\"-1\"", "\"\"",
        "true", "1.5", "[null]", "\"2026-04-20T08:00:00.5+01:00\"", "{\"name\":\"x\",\"count\":1}");
    rapidjson::Document parsed(&document.GetAllocator());
    parsed.Parse(replacement.c_str());
    target.CopyFrom(parsed, document.GetAllocator());
    values.clear();
    collect_values(document, values);
  }
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  document.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

// A JSON value whose keys often are the ones redaction looks at.
std::string random_json(int depth) {
  // Escaped spellings of env and data, and names that only end like them.
  static const std::vector<std::string> keys = {"env",       "value",      "data",  "stringData", "binaryData",
                                                "name",      "valueFrom",  "spec",  "containers", "x",
                                                "\\u0065nv", "da\\u0074a", "f:env", "metadata",   "annotations"};
  int choice = *rc::gen::inRange(0, depth > 0 ? 8 : 4);
  switch (choice) {
    case 0:
      return "null";
    case 1:
      return std::to_string(*rc::gen::arbitrary<int32_t>());
    case 2:
      return *rc::gen::element<std::string>(
          "true", "1.5", "\"\"", "\"s3cr3t\"", "\"é\\u0000\\\"\"", "\"env\"", R"("say \"env\":[{\"value\":\"x\"}] \\")",
          R"("\\\"data\":{}")",
          // Documents in a string, as kubectl's last-applied-configuration annotation holds them.
          R"("{\"data\":{\"k\":\"s3cr3t\"},\"metadata\":{\"annotations\":{\"a\":\"{\\\"env\\\":[{\\\"value\\\":1}]}\"}}}\n")",
          R"("[{\"env\":[{\"name\":\"A\",\"value\":\"s3cr3t\"}]}]")", R"(" {\"x\":\"\\u0065\"}")");
    case 3:
      return "\"" + *rc::gen::container<std::string>(rc::gen::inRange('a', static_cast<char>('z' + 1))) + "\"";
    case 4:
    case 5: {
      std::string out = "[";
      int items = *rc::gen::inRange(0, 4);
      for (int i = 0; i < items; ++i) out += (i ? "," : "") + random_json(depth - 1);
      return out + "]";
    }
    default: {
      std::string out = "{";
      int members = *rc::gen::inRange(0, 4);
      for (int i = 0; i < members; ++i) {
        out += (i ? ",\"" : "\"") + *rc::gen::elementOf(keys) + "\":" + random_json(depth - 1);
      }
      return out + "}";
    }
  }
}

bool is_hidden(const rapidjson::Value& value) {
  return value.IsNull() || (value.IsString() && is_redaction_marker({value.GetString(), value.GetStringLength()}));
}

bool no_secret_left(const rapidjson::Value& value);

// An annotation holding a JSON document: none left in the clear inside it either.
bool no_secret_left_in_annotation(const rapidjson::Value& value) {
  if (!value.IsString()) return no_secret_left(value);
  rapidjson::Document embedded;
  embedded.Parse(value.GetString(), value.GetStringLength());
  return embedded.HasParseError() || !(embedded.IsObject() || embedded.IsArray()) || no_secret_left(embedded);
}

// No env[].value and no entry of a data/stringData/binaryData object is left in the clear, nor
// inside an annotation that holds a JSON document.
bool no_secret_left(const rapidjson::Value& value) {
  if (value.IsArray()) {
    for (const auto& item : value.GetArray()) {
      if (!no_secret_left(item)) return false;
    }
    return true;
  }
  if (!value.IsObject()) return true;
  for (const auto& member : value.GetObject()) {
    std::string key(member.name.GetString(), member.name.GetStringLength());
    if ((key == "data" || key == "stringData" || key == "binaryData") && member.value.IsObject()) {
      for (const auto& entry : member.value.GetObject()) {
        if (!is_hidden(entry.value)) return false;
      }
    } else if (key == "annotations" && member.value.IsObject()) {
      for (const auto& entry : member.value.GetObject()) {
        if (!no_secret_left_in_annotation(entry.value)) return false;
      }
    } else if (key == "env" && member.value.IsArray()) {
      for (const auto& variable : member.value.GetArray()) {
        if (variable.IsObject() && variable.HasMember("value") && !is_hidden(variable["value"])) return false;
        if (!no_secret_left(variable)) return false;
      }
    } else if (!no_secret_left(member.value)) {
      return false;
    }
  }
  return true;
}

RC_GTEST_PROP(JsonProperty, decode_of_encode_is_the_object, (const WatchedObject& generated)) {
  WatchedObject object = decodable(generated);
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(encode_json(object), RawObjectMode::kOff);
  RC_ASSERT(decoded.ok());
  RC_ASSERT(decoded->object == object);
  RC_ASSERT(decoded->warnings.empty());
}

RC_GTEST_PROP(JsonProperty, decode_of_an_encoded_watch_event_is_the_event, (const WatchedObject& generated)) {
  WatchedObject object = decodable(generated);
  WatchEventType type = *rc::gen::element(WatchEventType::kAdded, WatchEventType::kModified, WatchEventType::kDeleted);
  JsonDecoder decoder;
  Result<WatchEvent> event = decoder.decode_watch_event(encode_watch_event(type, object), RawObjectMode::kRedacted);
  RC_ASSERT(event.ok());
  RC_ASSERT(event->type == type);
  RC_ASSERT(*event->object == object);
}

RC_GTEST_PROP(JsonProperty, decoding_arbitrary_bytes_never_throws, (const std::string& bytes)) {
  decode_everything(bytes);
}

RC_GTEST_PROP(JsonProperty, decoding_damaged_fixtures_never_throws_and_what_decodes_round_trips, ()) {
  std::string fixture = testing::read_fixture(
      *rc::gen::element<std::string>("queue_unit_watch_event.json", "queue.json", "elastic_quota.json",
                                     "queue_unit_list.json", "bookmark.json", "watch_error_410.json"));
  std::string damaged = *rc::gen::arbitrary<bool>() ? mutate(fixture) : mutate_values(fixture);
  JsonDecoder decoder;
  RC_CLASSIFY(decoder.decode_object(damaged, RawObjectMode::kOff).ok() ||
                  decoder.decode_watch_event(damaged, RawObjectMode::kOff).ok(),
              "still decodes");
  decode_everything(damaged);
}

// Quantity text: the API server's plain spellings, or anything made of quantity characters.
rc::Gen<std::string> quantity_text() {
  auto digits = rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange('0', static_cast<char>('9' + 1))));
  auto plain = rc::gen::apply(
      [](const std::string& whole, const std::string& fraction, bool has_fraction, const std::string& suffix) {
        return whole + (has_fraction ? "." + fraction : "") + suffix;
      },
      digits, digits, rc::gen::arbitrary<bool>(),
      rc::gen::element<std::string>("", "m", "k", "M", "G", "T", "P", "E", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"));
  auto other = rc::gen::container<std::string>(rc::gen::elementOf(std::string("0123456789.+-eEmkMGTPunKi ")));
  return rc::gen::oneOf(plain, other);
}

// Every quantity is kept (§3.1: the decision logic, not the decoder, refuses what is invalid): as
// written up to 128 bytes, cut short with "..." beyond, so that it never parses then.
RC_GTEST_PROP(JsonProperty, a_quantity_is_kept_as_written_and_warned_about_when_odd, ()) {
  std::string text = *quantity_text();
  JsonDecoder decoder;
  Result<DecodedObject> decoded = decoder.decode_object(
      R"({"kind":"ElasticQuota","metadata":{"name":"q","uid":"u"},"spec":{"max":{"cpu":")" + text + R"("}}})",
      RawObjectMode::kOff);
  RC_ASSERT(decoded.ok());
  const ResourceList& max = std::get<ElasticQuota>(decoded->object).spec.max;
  Result<Quantity> parsed = Quantity::parse(text);
  const bool fits = text.size() <= 128;
  const ResourceList expected{{"cpu", fits ? text : text.substr(0, 128) + "..."}};
  RC_ASSERT(max == expected);
  if (!fits) RC_ASSERT(!Quantity::parse(max.at("cpu")).ok());
  bool odd = !fits || !parsed.ok() || (parsed->negative() && !parsed->is_zero());
  RC_ASSERT(decoded->warnings.empty() == !odd);
}

RC_GTEST_PROP(JsonProperty, redaction_leaves_no_secret_and_a_second_pass_changes_nothing, ()) {
  std::string json = random_json(*rc::gen::inRange(0, 6));
  Result<std::string> once = redact_json(json);
  RC_ASSERT(once.ok());
  rapidjson::Document parsed;
  parsed.Parse(once->c_str(), once->size());
  RC_ASSERT(!parsed.HasParseError());
  RC_ASSERT(no_secret_left(parsed));
  Result<std::string> twice = redact_json(*once);
  RC_ASSERT(twice.ok());
  RC_ASSERT(*twice == *once);
}

// The splice into the bytes as received hides exactly what re-serialising the parsed document
// with the redaction does: the same text once whitespace is dropped, however the input is laid out.
RC_GTEST_PROP(JsonProperty, redaction_in_place_equals_the_redacting_reserialisation, ()) {
  const std::string json = random_json(*rc::gen::inRange(0, 6));
  rapidjson::Document document;
  document.Parse(json.c_str(), json.size());
  RC_ASSERT(!document.HasParseError());
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> pretty(buffer);
  document.Accept(pretty);
  const std::string laid_out(buffer.GetString(), buffer.GetSize());

  simdjson::dom::parser parser;
  simdjson::dom::element original, spliced;
  RC_ASSERT(parser.parse(json).get(original) == simdjson::SUCCESS);
  const std::string expected = json_detail::compact_json(original, json_detail::Redaction::kSecrets);
  // Both layouts: the generated text keeps escaped keys, the pretty one spells them plainly.
  for (const std::string& text : {json, laid_out}) {
    Result<std::string> redacted = redact_json(text);
    RC_ASSERT(redacted.ok());
    simdjson::dom::parser reparser;
    RC_ASSERT(reparser.parse(*redacted).get(spliced) == simdjson::SUCCESS);
    RC_ASSERT(json_detail::compact_json(spliced) == expected);
  }
}

RC_GTEST_PROP(JsonProperty, redacted_raw_json_of_any_object_has_no_env_value_in_the_clear, ()) {
  JsonDecoder decoder;
  Result<WatchEvent> event =
      decoder.decode_watch_event(testing::read_fixture("queue_unit_watch_event.json"), RawObjectMode::kRedacted);
  RC_ASSERT(event.ok());
  rapidjson::Document parsed;
  parsed.Parse(event->raw_json.c_str(), event->raw_json.size());
  RC_ASSERT(no_secret_left(parsed));
  // And inside a generated object, wherever env lists land.
  std::string env = R"({"env":[{"name":"A","value":")" + *rc::gen::arbitrary<std::string>() + R"("}]})";
  Result<std::string> redacted =
      redact_json(R"({"spec":{"podSet":[{"template":{"spec":{"containers":[)" + env + "]}}}]}}");
  if (redacted.ok()) {  // arbitrary strings may need escaping the raw splice does not give them
    rapidjson::Document document;
    document.Parse(redacted->c_str(), redacted->size());
    RC_ASSERT(no_secret_left(document));
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
