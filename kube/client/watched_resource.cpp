#include "kube/client/watched_resource.hpp"

namespace koordq::kube {

std::string WatchedResource::path() const {
  std::string path = "/apis/" + group + "/" + version;
  if (!namespace_.empty()) path += "/namespaces/" + namespace_;
  return path + "/" + resource;
}

std::string WatchedResource::describe() const {
  return namespace_.empty() ? resource : resource + " in " + namespace_;
}

WatchedResource queue_units_resource() {
  return {schema::ObjectKind::kQueueUnit, "scheduling.x-k8s.io", "v1alpha1", "queueunits", ""};
}

WatchedResource queues_resource(const std::string& queue_namespace) {
  return {schema::ObjectKind::kQueue, "scheduling.x-k8s.io", "v1alpha1", "queues", queue_namespace};
}

WatchedResource elastic_quotas_resource() {
  return {schema::ObjectKind::kElasticQuota, "scheduling.sigs.k8s.io", "v1alpha1", "elasticquotas", ""};
}

std::string query_escape(const std::string& value) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 15]);
    }
  }
  return out;
}

}  // namespace koordq::kube
