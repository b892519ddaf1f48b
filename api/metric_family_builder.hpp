// Building prometheus-cpp MetricFamily values directly, for families computed from the state at
// scrape time (gauges that cannot drift) and for the journaled counters and histograms (§15.4).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <prometheus/metric_family.h>

#include "api/exposition_writer.hpp"

namespace koordq::api {

class FamilyBuilder {
 public:
  FamilyBuilder(std::string name, std::string help, prometheus::MetricType type) {
    family_.name = std::move(name);
    family_.help = std::move(help);
    family_.type = type;
  }

  FamilyBuilder& sample(Labels labels, double value);
  // `bounds` ascending upper bounds; `cumulative[i]` observations ≤ bounds[i]; `count` all of them.
  FamilyBuilder& histogram(Labels labels, const std::vector<double>& bounds, const std::vector<uint64_t>& cumulative,
                           uint64_t count, double sum);

  bool empty() const { return family_.metric.empty(); }
  prometheus::MetricFamily take() { return std::move(family_); }

 private:
  prometheus::ClientMetric& add(Labels labels);
  prometheus::MetricFamily family_;
};

}  // namespace koordq::api
