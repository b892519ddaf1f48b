// Fuzzes the JSON decoder (objects, watch events, LIST pages, every raw-object mode) and the
// redaction. Beyond "no crash": whatever decodes re-encodes and decodes to the same object,
// full raw JSON is the received bytes, and redacted raw JSON is a fixed point of redaction.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "schema/json_decode.hpp"
#include "schema/json_encode.hpp"
#include "schema/raw_object.hpp"

namespace {

using namespace koordq::schema;

void check(bool holds, const char* invariant) {
  if (holds) return;
  std::fprintf(stderr, "invariant violated: %s\n", invariant);
  std::abort();
}

void check_redacted(const std::string& raw_json) {
  koordq::Result<std::string> again = redact_json(raw_json);
  check(again.ok(), "redacted raw JSON parses");
  check(*again == raw_json, "redacted raw JSON is a fixed point of redaction");
}

void check_round_trip(JsonDecoder& decoder, const WatchedObject& object) {
  koordq::Result<DecodedObject> again = decoder.decode_object(encode_json(object), RawObjectMode::kOff);
  check(again.ok(), "an encoded object decodes");
  check(again->object == object, "decode(encode(x)) == x");
}

void fuzz_object(JsonDecoder& decoder, std::string_view bytes) {
  koordq::Result<DecodedObject> full = decoder.decode_object(bytes, RawObjectMode::kFull);
  koordq::Result<DecodedObject> redacted = decoder.decode_object(bytes, RawObjectMode::kRedacted);
  check(full.ok() == redacted.ok(), "the raw-object mode does not change whether an object decodes");
  if (!full.ok()) return;
  check(full->raw_json == bytes, "full raw JSON is the received bytes");
  check_redacted(redacted->raw_json);
  check(full->object == redacted->object, "the raw-object mode does not change the object");
  check_round_trip(decoder, full->object);
}

void fuzz_watch_event(JsonDecoder& decoder, std::string_view bytes) {
  koordq::Result<WatchEvent> full = decoder.decode_watch_event(bytes, RawObjectMode::kFull);
  koordq::Result<WatchEvent> redacted = decoder.decode_watch_event(bytes, RawObjectMode::kRedacted);
  check(full.ok() == redacted.ok(), "the raw-object mode does not change whether an event decodes");
  if (!full.ok()) return;
  check(bytes.find(full->raw_json) != std::string_view::npos, "full raw JSON comes from the received bytes");
  check_redacted(redacted->raw_json);
  check(full->object.has_value() == (full->type != WatchEventType::kError), "only ERROR events carry no object");
  if (full->object && full->type != WatchEventType::kBookmark) {
    check_round_trip(decoder, *full->object);
    koordq::Result<WatchEvent> again =
        decoder.decode_watch_event(encode_watch_event(full->type, *full->object), RawObjectMode::kOff);
    check(again.ok() && again->object == full->object, "an encoded watch event decodes to the same object");
  }
}

void fuzz_list(JsonDecoder& decoder, std::string_view bytes) {
  for (ObjectKind kind : {ObjectKind::kQueueUnit, ObjectKind::kQueue, ObjectKind::kElasticQuota}) {
    koordq::Result<ListPage> page = decoder.decode_list(bytes, kind, RawObjectMode::kRedacted);
    if (!page.ok()) continue;
    for (const DecodedObject& item : page->items) {
      check(kind_of(item.object) == kind, "list items are of the listed kind");
      check_redacted(item.raw_json);
      check_round_trip(decoder, item.object);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static JsonDecoder decoder;
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  fuzz_object(decoder, bytes);
  fuzz_watch_event(decoder, bytes);
  fuzz_list(decoder, bytes);
  koordq::Result<std::string> redacted = redact_json(bytes);
  if (redacted.ok()) check_redacted(*redacted);
  return 0;
}
