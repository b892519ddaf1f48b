#include "base/object_name.hpp"

namespace koordq::base {
namespace {

bool is_lower_alphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

bool is_dns_name(std::string_view text, size_t max_length, bool allow_dots) {
  if (text.empty() || text.size() > max_length) return false;
  if (!is_lower_alphanumeric(text.front()) || !is_lower_alphanumeric(text.back())) return false;
  for (char c : text) {
    if (!is_lower_alphanumeric(c) && c != '-' && !(allow_dots && c == '.')) return false;
  }
  return true;
}

}  // namespace

bool is_object_name(std::string_view text) {
  return is_dns_name(text, 253, true);
}

bool is_namespace_name(std::string_view text) {
  return is_dns_name(text, 63, false);
}

}  // namespace koordq::base
