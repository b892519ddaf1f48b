#include "api/compact_json.hpp"

#include "schema/json_string_out.hpp"

namespace koordq::api {

void CompactJson::quoted(std::string_view s, char suffix) {
  // The separator, the escaped string and the suffix.
  char* at = room(schema::json_string_room(s.size()) + 2);
  if (comma_) *at++ = ',';
  at = schema::write_json_string(at, s);
  if (suffix != 0) *at++ = suffix;
  used_ = static_cast<size_t>(at - out_.data());
}

}  // namespace koordq::api
