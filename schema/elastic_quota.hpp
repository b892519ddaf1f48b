// ElasticQuota (scheduling.sigs.k8s.io/v1alpha1), read only (behaviour.md §2.4).
#pragma once

#include "schema/object_meta.hpp"
#include "schema/resource_list.hpp"

namespace koordq::schema {

struct ElasticQuotaSpec {
  ResourceList max;
  ResourceList min;

  bool operator==(const ElasticQuotaSpec&) const = default;
};

struct ElasticQuota {
  ObjectMeta metadata;
  ElasticQuotaSpec spec;

  bool operator==(const ElasticQuota&) const = default;
};

}  // namespace koordq::schema
