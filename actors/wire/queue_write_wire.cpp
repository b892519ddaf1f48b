#include "actors/wire/queue_write_wire.hpp"

#include <string>

#include "schema/wire_codec.hpp"
#include "schema/wire_fields.hpp"

namespace koordq::actors {
namespace {

using schema::wire_fields::text;
using schema::wire_fields::to_string;

void write_map_patch(capnp::List<wire::MapPatchEntry>::Builder out, const MapPatch& patch) {
  unsigned i = 0;
  for (const auto& [key, value] : patch) {
    auto entry = out[i++];
    entry.setKey(text(key));
    if (value) {
      entry.setSet(text(*value));
    } else {
      entry.setRemove();
    }
  }
}

// Of duplicate names the first wins, as for every map read from the wire; a name that is none of
// the six fails the record.
Result<QueueWrite> read_usage_annotations(capnp::List<wire::StringEntry>::Reader in) {
  UsageAnnotations usage;
  for (auto entry : in) {
    const capnp::Text::Reader name = entry.getKey();
    const auto slot = UsageAnnotations::slot_of(std::string_view(name.begin(), name.size()));
    if (!slot) return make_error("usage annotation \"" + to_string(name) + "\" is none of the six of a Queue");
    if (!usage.get(*slot)) usage.set(*slot, to_string(entry.getValue()));
  }
  return QueueWrite(std::move(usage));
}

// Of duplicate keys the first wins, as for every map read from the wire.
Result<MapPatch> read_map_patch(capnp::List<wire::MapPatchEntry>::Reader in) {
  MapPatch patch;
  for (auto entry : in) {
    std::optional<std::string> value;
    switch (entry.which()) {
      case wire::MapPatchEntry::SET:
        value = to_string(entry.getSet());
        break;
      case wire::MapPatchEntry::REMOVE:
        break;
      default:
        return make_error("map patch key \"" + to_string(entry.getKey()) + "\" has an unknown operation " +
                          std::to_string(static_cast<uint16_t>(entry.which())));
    }
    patch.emplace(to_string(entry.getKey()), std::move(value));
  }
  return patch;
}

void write_queue_patch(wire::QueuePatch::Builder out, const QueuePatch& patch) {
  if (patch.queue_policy) {
    out.getQueuePolicy().setValue(text(*patch.queue_policy));
  } else {
    out.getQueuePolicy().setAbsent();
  }
  if (!patch.labels.empty()) write_map_patch(out.initLabels(patch.labels.size()), patch.labels);
  if (!patch.annotations.empty()) write_map_patch(out.initAnnotations(patch.annotations.size()), patch.annotations);
}

Result<QueueWrite> read_queue_patch(wire::QueuePatch::Reader in) {
  QueuePatch patch;
  if (in.getQueuePolicy().isValue()) patch.queue_policy = to_string(in.getQueuePolicy().getValue());
  auto labels = read_map_patch(in.getLabels());
  if (!labels.ok()) return make_error("labels: " + labels.message());
  auto annotations = read_map_patch(in.getAnnotations());
  if (!annotations.ok()) return make_error("annotations: " + annotations.message());
  patch.labels = std::move(labels).value();
  patch.annotations = std::move(annotations).value();
  return QueueWrite(std::move(patch));
}

}  // namespace

void write_queue_write(wire::QueueWrite::Builder out, const QueueWrite& write) {
  if (const auto* details = std::get_if<schema::QueueItemDetails>(&write)) {
    schema::write_queue_item_details(out.initQueueItemDetails(), *details);
  } else if (const auto* usage = std::get_if<UsageAnnotations>(&write)) {
    write_usage_annotations(out.initUsageAnnotations(static_cast<unsigned>(usage->size())), *usage);
  } else if (const auto* queue = std::get_if<schema::Queue>(&write)) {
    schema::write_queue(out.initCreate(), *queue);
  } else if (const auto* patch = std::get_if<QueuePatch>(&write)) {
    write_queue_patch(out.initPatch(), *patch);
  } else {
    out.setDelete();
  }
}

void write_usage_annotations(capnp::List<wire::StringEntry>::Builder out, const UsageAnnotations& usage) {
  unsigned i = 0;
  for (const auto& [name, value] : usage) {
    out[i].setKey(capnp::Text::Reader(name.data(), name.size()));  // one of the NUL-terminated names
    out[i++].setValue(text(value));
  }
}

Result<QueueWrite> read_queue_write(wire::QueueWrite::Reader in) {
  switch (in.which()) {
    case wire::QueueWrite::QUEUE_ITEM_DETAILS:
      return QueueWrite(schema::read_queue_item_details(in.getQueueItemDetails()));
    case wire::QueueWrite::USAGE_ANNOTATIONS:
      return read_usage_annotations(in.getUsageAnnotations());
    case wire::QueueWrite::CREATE:
      return QueueWrite(schema::read_queue(in.getCreate()));
    case wire::QueueWrite::PATCH:
      return read_queue_patch(in.getPatch());
    case wire::QueueWrite::DELETE:
      return QueueWrite(QueueDelete{});
  }
  return make_error("unknown queue write " + std::to_string(static_cast<uint16_t>(in.which())));
}

}  // namespace koordq::actors
