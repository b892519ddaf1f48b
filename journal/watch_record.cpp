#include "journal/watch_record.hpp"

#include "schema/wire_codec.hpp"

namespace koordq::journal {
namespace {

wire::Watch::EventType to_wire(schema::WatchEventType type) {
  switch (type) {
    case schema::WatchEventType::kAdded:
      return wire::Watch::EventType::ADDED;
    case schema::WatchEventType::kModified:
      return wire::Watch::EventType::MODIFIED;
    case schema::WatchEventType::kDeleted:
      return wire::Watch::EventType::DELETED;
    case schema::WatchEventType::kBookmark:
    case schema::WatchEventType::kError:
      break;
  }
  return wire::Watch::EventType::BOOKMARK;
}

wire::Watch::RawMode to_wire(schema::RawObjectMode mode) {
  switch (mode) {
    case schema::RawObjectMode::kOff:
      return wire::Watch::RawMode::OFF;
    case schema::RawObjectMode::kRedacted:
      return wire::Watch::RawMode::REDACTED;
    case schema::RawObjectMode::kFull:
      return wire::Watch::RawMode::FULL;
  }
  return wire::Watch::RawMode::OFF;
}

}  // namespace

std::unique_ptr<CapnpRecordBody> make_watch_body(const schema::WatchEvent& event, schema::RawObjectMode raw_mode,
                                                 bool synthesized) {
  auto body = std::make_unique<CapnpRecordBody>();
  auto watch = body->record().initBody().initWatch();
  watch.setEventType(to_wire(event.type));
  watch.setRawMode(to_wire(raw_mode));
  watch.setSynthesized(synthesized);
  if (event.object) {
    const schema::ObjectMeta& meta = schema::meta_of(*event.object);
    watch.setObjectKind(schema::to_wire(schema::kind_of(*event.object)));
    watch.setNamespace(meta.namespace_);
    watch.setName(meta.name);
    watch.setUid(meta.uid);
    watch.setResourceVersion(meta.resource_version);
    if (event.type == schema::WatchEventType::kBookmark) {
      watch.initObject().setNone();
    } else {
      schema::write_watched_object(watch.initObject(), *event.object);
    }
  } else {
    watch.initObject().setNone();
  }
  if (raw_mode != schema::RawObjectMode::kOff) watch.setRawJson(event.raw_json);
  return body;
}

}  // namespace koordq::journal
