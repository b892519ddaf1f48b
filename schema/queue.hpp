// Queue (scheduling.x-k8s.io/v1alpha1), the fields of behaviour.md §2.3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "schema/object_meta.hpp"

namespace koordq::schema {

struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;  // In, NotIn, Exists, DoesNotExist
  std::vector<std::string> values;

  bool operator==(const LabelSelectorRequirement&) const = default;
};

struct LabelSelector {
  StringMap match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;

  bool operator==(const LabelSelector&) const = default;
};

struct QueueAdmissionCheck {
  std::string name;
  std::optional<LabelSelector> label_selector;

  bool operator==(const QueueAdmissionCheck&) const = default;
};

struct QueueSpec {
  std::string queue_policy;
  std::optional<int32_t> priority;
  std::string priority_class_name;
  std::vector<QueueAdmissionCheck> admission_checks;

  bool operator==(const QueueSpec&) const = default;
};

struct QueueItem {
  std::string name;
  std::string namespace_;
  std::optional<int32_t> priority;  // omitted when 0 (§14.2)
  int64_t position = 0;

  bool operator==(const QueueItem&) const = default;
};

struct QueueItemDetails {
  std::vector<QueueItem> active;
  std::vector<QueueItem> backoff;

  bool operator==(const QueueItemDetails&) const = default;
};

struct QueueStatus {
  std::optional<QueueItemDetails> queue_item_details;

  bool operator==(const QueueStatus&) const = default;
};

struct Queue {
  ObjectMeta metadata;
  QueueSpec spec;
  QueueStatus status;

  bool operator==(const Queue&) const = default;
};

}  // namespace koordq::schema
