#include "cmd/object_names.hpp"

namespace koordq::cmd {
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

Result<NamespacedName> parse_namespaced_name(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) return make_error("must be <namespace>/<name>");
  const std::string_view namespace_name = text.substr(0, slash);
  const std::string_view name = text.substr(slash + 1);
  if (!is_namespace_name(namespace_name)) return make_error("must be <namespace>/<name> with a valid namespace");
  if (!is_object_name(name)) return make_error("must be <namespace>/<name> with a valid object name");
  return NamespacedName{std::string(namespace_name), std::string(name)};
}

}  // namespace koordq::cmd
