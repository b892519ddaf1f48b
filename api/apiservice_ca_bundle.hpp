// The APIService side of the visibility API's serving certificate (behaviour.md §16.1): what an
// APIService says about the Service it points at and the CA it trusts, and the merge patch that
// makes it trust koordq's serving certificate instead of skipping verification. Pure.
#pragma once

#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::api {

inline constexpr std::string_view kApiServicesPath = "/apis/apiregistration.k8s.io/v1/apiservices/";

struct ApiServiceView {
  std::string ca_bundle;  // spec.caBundle as stored: base64 of PEM
  bool insecure_skip_tls_verify = false;
  std::string service_host;  // <service>.<namespace>.svc, the name the aggregator verifies; empty: none
};

Result<ApiServiceView> api_service_view(std::string_view apiservice_json);

// {"spec":{"caBundle":"<base64 of pem>","insecureSkipTLSVerify":false}}
std::string ca_bundle_patch(std::string_view certificate_pem);

}  // namespace koordq::api
