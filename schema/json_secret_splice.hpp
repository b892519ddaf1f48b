// Internal to koordq_json: `--journal-raw-objects=redacted` on the bytes as received. The text is
// copied unchanged except for each secret value of raw_object.hpp's rules, which is replaced by
// the JSON string of its redaction marker. Finding the secrets takes one scan of the text, where
// re-serialising the parsed document cost as much again as decoding it.
//
// The text must be JSON that simdjson has accepted (structure and UTF-8 checked, depth within
// the parser's cap): other text gives a wrong result but never a fault, since every read is
// bounds-checked.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace koordq::schema::json_detail {

std::string redact_as_received(std::string_view json);

// An annotation's value that holds a JSON object or array (kubectl.kubernetes.io/last-applied-
// configuration, say): that document redacted as above; std::nullopt when the value is no such
// document or has nothing to redact.
std::optional<std::string> redact_embedded_json(std::string_view text);

}  // namespace koordq::schema::json_detail
