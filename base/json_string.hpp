// JSON string literals written byte for byte as RapidJSON's Writer writes them: `"`, `\` and the
// control characters escaped (\b \t \n \f \r by name, the others as \u00XX), everything else, '/',
// DEL and UTF-8 included, as is. The one escaping of every JSON koordq writes by hand: the
// re-serialisation of raw objects (schema/json_dom_writer.cpp), the API's compact JSON
// (api/compact_json.cpp), the renderings of replay and what-if, the usage annotations.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace koordq::base {

// The most bytes write_json_string writes for a text of `text_bytes`: each as \u00XX, and quotes.
constexpr size_t json_string_room(size_t text_bytes) {
  return text_bytes * 6 + 2;
}

// Writes `"text"`, escaped, at `cursor` (which has json_string_room(text.size()) bytes of room);
// returns the end of what it wrote. Runs of 8 bytes with nothing to escape are copied whole.
char* write_json_string(char* cursor, std::string_view text);

// Appends `"text"`, escaped, to `out`.
void append_json_string(std::string& out, std::string_view text);

}  // namespace koordq::base
