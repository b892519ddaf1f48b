#include "schema/wire_codec.hpp"
#include "schema/wire_fields.hpp"

namespace koordq::schema {

using namespace wire_fields;

namespace {

void write_requirement(wire::LabelSelectorRequirement::Builder out, const LabelSelectorRequirement& requirement) {
  out.setKey(text(requirement.key));
  out.setOperator(text(requirement.operator_));
  if (!requirement.values.empty()) {
    auto values = out.initValues(requirement.values.size());
    for (unsigned i = 0; i < values.size(); ++i) values.set(i, text(requirement.values[i]));
  }
}

LabelSelectorRequirement read_requirement(wire::LabelSelectorRequirement::Reader in) {
  return LabelSelectorRequirement{.key = to_string(in.getKey()),
                                  .operator_ = to_string(in.getOperator()),
                                  .values = read_list<std::string>(in.getValues(), to_string)};
}

void write_label_selector(wire::LabelSelector::Builder out, const LabelSelector& selector) {
  if (!selector.match_labels.empty()) {
    write_string_map(out.initMatchLabels(selector.match_labels.size()), selector.match_labels);
  }
  if (!selector.match_expressions.empty()) {
    write_list(out.initMatchExpressions(selector.match_expressions.size()), selector.match_expressions,
               write_requirement);
  }
}

LabelSelector read_label_selector(wire::LabelSelector::Reader in) {
  return LabelSelector{
      .match_labels = read_string_map(in.getMatchLabels()),
      .match_expressions = read_list<LabelSelectorRequirement>(in.getMatchExpressions(), read_requirement)};
}

void write_admission_check(wire::QueueAdmissionCheck::Builder out, const QueueAdmissionCheck& check) {
  out.setName(text(check.name));
  if (check.label_selector) write_label_selector(out.getLabelSelector().initValue(), *check.label_selector);
}

QueueAdmissionCheck read_admission_check(wire::QueueAdmissionCheck::Reader in) {
  QueueAdmissionCheck check;
  check.name = to_string(in.getName());
  if (auto selector = in.getLabelSelector(); selector.isValue()) {
    check.label_selector = read_label_selector(selector.getValue());
  }
  return check;
}

void write_spec(wire::QueueSpec::Builder out, const QueueSpec& spec) {
  out.setQueuePolicy(text(spec.queue_policy));
  write_optional(out.getPriority(), spec.priority);
  out.setPriorityClassName(text(spec.priority_class_name));
  if (!spec.admission_checks.empty()) {
    write_list(out.initAdmissionChecks(spec.admission_checks.size()), spec.admission_checks, write_admission_check);
  }
}

QueueSpec read_spec(wire::QueueSpec::Reader in) {
  return QueueSpec{.queue_policy = to_string(in.getQueuePolicy()),
                   .priority = read_optional(in.getPriority()),
                   .priority_class_name = to_string(in.getPriorityClassName()),
                   .admission_checks = read_list<QueueAdmissionCheck>(in.getAdmissionChecks(), read_admission_check)};
}

void write_item(wire::QueueItem::Builder out, const QueueItem& item) {
  out.setName(text(item.name));
  out.setNamespace(text(item.namespace_));
  write_optional(out.getPriority(), item.priority);
  out.setPosition(item.position);
}

QueueItem read_item(wire::QueueItem::Reader in) {
  return QueueItem{.name = to_string(in.getName()),
                   .namespace_ = to_string(in.getNamespace()),
                   .priority = read_optional(in.getPriority()),
                   .position = in.getPosition()};
}

}  // namespace

void write_queue_item_details(wire::QueueItemDetails::Builder out, const QueueItemDetails& details) {
  if (!details.active.empty()) write_list(out.initActive(details.active.size()), details.active, write_item);
  if (!details.backoff.empty()) write_list(out.initBackoff(details.backoff.size()), details.backoff, write_item);
}

QueueItemDetails read_queue_item_details(wire::QueueItemDetails::Reader in) {
  return QueueItemDetails{.active = read_list<QueueItem>(in.getActive(), read_item),
                          .backoff = read_list<QueueItem>(in.getBackoff(), read_item)};
}

void write_queue(wire::Queue::Builder out, const Queue& queue) {
  write_object_meta(out.initMetadata(), queue.metadata);
  write_spec(out.initSpec(), queue.spec);
  if (queue.status.queue_item_details) {
    write_queue_item_details(out.initStatus().getQueueItemDetails().initValue(), *queue.status.queue_item_details);
  }
}

Queue read_queue(wire::Queue::Reader in) {
  Queue queue;
  queue.metadata = read_object_meta(in.getMetadata());
  queue.spec = read_spec(in.getSpec());
  if (auto details = in.getStatus().getQueueItemDetails(); details.isValue()) {
    queue.status.queue_item_details = read_queue_item_details(details.getValue());
  }
  return queue;
}

}  // namespace koordq::schema
