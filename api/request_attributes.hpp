// What a visibility API request asks for, in the terms of an authorization decision (behaviour.md
// §16.8), read from its path as k8s.io/apiserver's RequestInfoFactory reads it: under
// /apis/<group>/<version>/ a resource request ([namespaces/<ns>/]<resource>[/<name>[/<subresource>]],
// verb get with a name and list without); any other path (discovery, /openapi/v2) a non-resource
// request with verb get.
#pragma once

#include <string>
#include <string_view>

namespace koordq::api {

struct RequestAttributes {
  bool resource_request = false;
  std::string verb;  // get or list
  std::string path;  // the request path, for a non-resource request
  std::string group;
  std::string version;
  std::string namespace_;  // empty: the cluster scope
  std::string resource;
  std::string subresource;
  std::string name;
};

// `path` without the query.
RequestAttributes request_attributes_of(std::string_view path);

// The forbidden message of k8s.io/apiserver: `User "alice" cannot get resource "queues/queueunits"
// in API group "g" in the namespace "ns"` (or `at the cluster scope`, or `cannot get path "/apis"`).
std::string forbidden_message(std::string_view user, const RequestAttributes& attributes);

}  // namespace koordq::api
