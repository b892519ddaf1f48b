#include "schema/wire_codec.hpp"
#include "schema/wire_fields.hpp"

namespace koordq::schema {

using namespace wire_fields;

void write_elastic_quota(wire::ElasticQuota::Builder out, const ElasticQuota& quota) {
  write_object_meta(out.initMetadata(), quota.metadata);
  auto spec = out.initSpec();
  if (!quota.spec.max.empty()) write_resource_list(spec.initMax(quota.spec.max.size()), quota.spec.max);
  if (!quota.spec.min.empty()) write_resource_list(spec.initMin(quota.spec.min.size()), quota.spec.min);
}

ElasticQuota read_elastic_quota(wire::ElasticQuota::Reader in) {
  return ElasticQuota{.metadata = read_object_meta(in.getMetadata()),
                      .spec = ElasticQuotaSpec{.max = read_resource_list(in.getSpec().getMax()),
                                               .min = read_resource_list(in.getSpec().getMin())}};
}

}  // namespace koordq::schema
