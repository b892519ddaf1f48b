// Internal to koordq_json: byte ranges of values inside JSON text that simdjson has already
// accepted, so that --journal-raw-objects=full keeps an embedded object's bytes exactly as
// received. Bounds are checked, so text that is not valid JSON gives nonsense but no fault.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace koordq::schema::json_detail {

// The value of the first member named `key` (ASCII) of the top-level object, comparing keys
// after unescaping as the parser does; nullopt when there is none.
// With `last_member` (the caller knows from the parsed document that this member comes last),
// the value runs to the closing brace and is not scanned: a watch event's object usually is last.
std::optional<std::string_view> member_span(std::string_view document, std::string_view key, bool last_member = false);

// The elements of a JSON array's text.
std::vector<std::string_view> element_spans(std::string_view array);

}  // namespace koordq::schema::json_detail
