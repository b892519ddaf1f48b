// Internal to koordq_json: compact JSON text of a value of a parsed simdjson document, keeping
// member order, optionally with the `--journal-raw-objects` redaction of raw_object.hpp. The text
// is what RapidJSON's Writer produces for the same value (same escapes, same number rendering),
// written directly: copying unescaped runs whole is several times faster than the Writer's
// byte-by-byte output, and raw objects are written for every watch event. Recursion depth is
// bounded by the parser's depth cap.
#pragma once

#include <string>
#include <string_view>

#include <simdjson.h>

namespace koordq::schema::json_detail {

enum class Redaction { kNone, kSecrets };

void append_json(simdjson::dom::element value, Redaction redaction, std::string& out);
std::string compact_json(simdjson::dom::element value, Redaction redaction = Redaction::kNone);

// The members whose object value is a map of secrets (raw_object.hpp).
inline bool is_secret_map_key(std::string_view key) {
  return key == "data" || key == "stringData" || key == "binaryData";
}

// `"text"` with JSON escapes.
void append_json_string(std::string_view text, std::string& out);

}  // namespace koordq::schema::json_detail
