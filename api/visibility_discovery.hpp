// The visibility API's discovery documents (behaviour.md §16.2) and its OpenAPI v2 document
// (§16.1), and the choice between legacy and aggregated discovery by the Accept header.
#pragma once

#include <string>
#include <string_view>

namespace koordq::api {

enum class DiscoveryForm { kLegacy, kAggregatedV2, kAggregatedV2Beta1 };

DiscoveryForm choose_discovery_form(std::string_view accept);
std::string_view discovery_content_type(DiscoveryForm form);

std::string api_group_list();                              // GET /apis, legacy
std::string api_group_discovery_list(DiscoveryForm form);  // GET /apis, aggregated
std::string api_group();                                   // GET /apis/visibility.koord-queue.x-k8s.io
std::string api_resource_list();                           // GET /apis/visibility.koord-queue.x-k8s.io/v1alpha1
std::string openapi_v2();                                  // GET /openapi/v2

}  // namespace koordq::api
