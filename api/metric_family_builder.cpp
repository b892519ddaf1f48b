#include "api/metric_family_builder.hpp"

#include <limits>

namespace koordq::api {

prometheus::ClientMetric& FamilyBuilder::add(Labels labels) {
  prometheus::ClientMetric& metric = family_.metric.emplace_back();
  for (const Label& label : labels) metric.label.push_back({std::string(label.name), std::string(label.value)});
  return metric;
}

FamilyBuilder& FamilyBuilder::sample(Labels labels, double value) {
  prometheus::ClientMetric& metric = add(labels);
  switch (family_.type) {
    case prometheus::MetricType::Counter:
      metric.counter.value = value;
      break;
    case prometheus::MetricType::Gauge:
      metric.gauge.value = value;
      break;
    default:
      metric.untyped.value = value;
  }
  return *this;
}

FamilyBuilder& FamilyBuilder::histogram(Labels labels, const std::vector<double>& bounds,
                                        const std::vector<uint64_t>& cumulative, uint64_t count, double sum) {
  prometheus::ClientMetric& metric = add(labels);
  metric.histogram.sample_count = count;
  metric.histogram.sample_sum = sum;
  for (size_t i = 0; i < bounds.size(); ++i) metric.histogram.bucket.push_back({cumulative[i], bounds[i]});
  metric.histogram.bucket.push_back({count, std::numeric_limits<double>::infinity()});
  return *this;
}

}  // namespace koordq::api
