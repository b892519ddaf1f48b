#include "cmd/object_names.hpp"

namespace koordq::cmd {

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
