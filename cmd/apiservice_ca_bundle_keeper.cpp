#include "cmd/apiservice_ca_bundle_keeper.hpp"

#include <algorithm>

#include "api/apiservice_ca_bundle.hpp"
#include "base/base64.hpp"
#include "base/log.hpp"

namespace koordq::cmd {

void ApiServiceCaBundleKeeper::problem(const std::string& message) {
  if (message == last_problem_) return;
  last_problem_ = message;
  KQ_LOG_WARNING("visibility APIService {}: {}", apiservice_, message);
}

void ApiServiceCaBundleKeeper::keep(api::TlsMaterial& tls) {
  const std::string path = std::string(api::kApiServicesPath) + apiservice_;
  kube::Request get;
  get.target = path;
  auto answer = client_.send(get);
  if (!answer.ok()) return problem("cannot read it to keep its caBundle: " + answer.message());
  if (answer->status == 404) {
    // Not (yet) created: nothing to keep in step; checked again in 10 s.
    KQ_V(2)("visibility APIService {} not found; its caBundle is set once it exists", apiservice_);
    return;
  }
  if (!answer->ok()) {
    return problem("GET " + path + " answered " + std::to_string(answer->status) +
                   "; koordq needs get and patch on apiservices.apiregistration.k8s.io named " + apiservice_ +
                   " (ops/kubernetes/base/rbac.yaml), or --visibility-apiservice=\"\"");
  }
  auto view = api::api_service_view(answer->body);
  if (!view.ok()) return problem(view.message());
  if (!generated_hosts_.empty() && !view->service_host.empty() &&
      std::find(generated_hosts_.begin(), generated_hosts_.end(), view->service_host) == generated_hosts_.end()) {
    std::vector<std::string> hosts = generated_hosts_;
    hosts.push_back(view->service_host);
    auto pair = api::generate_certificate({"localhost", hosts, 365, false, false});
    if (!pair.ok())
      return problem("cannot make a serving certificate for " + view->service_host + ": " + pair.message());
    if (Status set = tls.set_generated_serving(std::move(*pair)); !set.ok()) return problem(set.message());
    generated_hosts_ = std::move(hosts);
    KQ_LOG_INFO("visibility API serves a self-signed certificate for {} (the Service of APIService {})",
                view->service_host, apiservice_);
  }
  const std::string certificate = tls.serving_certificate();
  if (view->ca_bundle == base::base64_encode(certificate) && !view->insecure_skip_tls_verify) {
    last_problem_.clear();
    return;
  }
  kube::Request patch;
  patch.verb = kube::Verb::kPatch;
  patch.target = path;
  patch.body = api::ca_bundle_patch(certificate);
  patch.content_type = "application/merge-patch+json";
  auto patched = client_.send(patch);
  if (!patched.ok()) return problem("cannot set its caBundle: " + patched.message());
  if (!patched->ok()) {
    return problem("PATCH " + path + " answered " + std::to_string(patched->status) +
                   "; koordq needs get and patch on apiservices.apiregistration.k8s.io named " + apiservice_ +
                   " (ops/kubernetes/base/rbac.yaml), or --visibility-apiservice=\"\"");
  }
  last_problem_.clear();
  KQ_LOG_INFO("visibility APIService {}: caBundle set to koordq's serving certificate", apiservice_);
}

}  // namespace koordq::cmd
