#include "api/compact_json.hpp"

#include "base/json_string.hpp"

namespace koordq::api {

void CompactJson::quoted(std::string_view s, char suffix) {
  // The separator, the escaped string and the suffix.
  char* at = room(base::json_string_room(s.size()) + 2);
  if (comma_) *at++ = ',';
  at = base::write_json_string(at, s);
  if (suffix != 0) *at++ = suffix;
  used_ = static_cast<size_t>(at - out_.data());
}

}  // namespace koordq::api
