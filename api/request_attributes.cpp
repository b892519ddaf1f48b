#include "api/request_attributes.hpp"

#include <vector>

namespace koordq::api {
namespace {

std::vector<std::string> path_parts(std::string_view path) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= path.size()) {
    const size_t slash = path.find('/', start);
    const size_t end = slash == std::string_view::npos ? path.size() : slash;
    if (end > start) parts.emplace_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

}  // namespace

RequestAttributes request_attributes_of(std::string_view path) {
  RequestAttributes a;
  a.verb = "get";
  a.path = std::string(path);
  const std::vector<std::string> parts = path_parts(path);
  // apis / group / version / resource...: fewer parts is discovery, a non-resource request.
  if (parts.size() < 4 || parts[0] != "apis") return a;
  a.resource_request = true;
  a.group = parts[1];
  a.version = parts[2];
  size_t next = 3;
  if (parts[next] == "namespaces") {
    if (parts.size() == 4) {  // /apis/g/v/namespaces: the namespaces themselves
      a.resource = "namespaces";
      a.verb = "list";
      return a;
    }
    a.namespace_ = parts[next + 1];
    next += 2;
    if (next == parts.size()) {  // /apis/g/v/namespaces/<ns>: that namespace
      a.resource = "namespaces";
      a.name = a.namespace_;
      return a;
    }
  }
  a.resource = parts[next];
  if (next + 1 < parts.size()) a.name = parts[next + 1];
  if (next + 2 < parts.size()) a.subresource = parts[next + 2];
  if (a.name.empty()) a.verb = "list";
  return a;
}

std::string forbidden_message(std::string_view user, const RequestAttributes& a) {
  const std::string who = "User \"" + std::string(user) + "\" cannot " + a.verb;
  if (!a.resource_request) return who + " path \"" + a.path + "\"";
  const std::string resource = a.subresource.empty() ? a.resource : a.resource + "/" + a.subresource;
  const std::string what = who + " resource \"" + resource + "\" in API group \"" + a.group + "\"";
  if (!a.namespace_.empty()) return what + " in the namespace \"" + a.namespace_ + "\"";
  return what + " at the cluster scope";
}

}  // namespace koordq::api
