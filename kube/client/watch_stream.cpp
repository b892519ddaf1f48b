#include "kube/client/watch_stream.hpp"

#include <cstring>

namespace koordq::kube {

WatchStreamParser::WatchStreamParser(size_t max_event_bytes) : max_event_bytes_(max_event_bytes) {}

Status WatchStreamParser::too_long() const {
  return make_error("watch stream: an event is longer than " + std::to_string(max_event_bytes_) +
                    " bytes (the largest object the decoder accepts)");
}

Status WatchStreamParser::feed(std::string_view bytes, const std::function<Status(std::string_view)>& on_line) {
  while (!bytes.empty()) {
    const char* newline = static_cast<const char*>(std::memchr(bytes.data(), '\n', bytes.size()));
    if (newline == nullptr) {
      if (partial_.size() + bytes.size() > max_event_bytes_) return too_long();
      partial_.append(bytes);
      return ok_status();
    }
    size_t length = static_cast<size_t>(newline - bytes.data());
    std::string_view line;
    if (partial_.empty()) {
      line = bytes.substr(0, length);
    } else {
      if (partial_.size() + length > max_event_bytes_) return too_long();
      partial_.append(bytes.substr(0, length));
      line = partial_;
    }
    bytes.remove_prefix(length + 1);
    if (line.size() > max_event_bytes_) return too_long();
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    Status handled = ok_status();
    if (line.find_first_not_of(" \t") != std::string_view::npos) handled = on_line(line);
    partial_.clear();
    if (!handled.ok()) return handled;
  }
  return ok_status();
}

Status WatchStreamParser::finish() const {
  if (partial_.find_first_not_of(" \t\r") == std::string::npos) return ok_status();
  return make_error("watch stream ended mid-event (" + std::to_string(partial_.size()) +
                    " bytes of an incomplete event); resuming from the last resourceVersion");
}

bool is_expired(const schema::WatchEvent& event) {
  return event.type == schema::WatchEventType::kError && event.status && event.status->code == 410;
}

WatchEventReader::WatchEventReader(schema::ObjectKind kind, schema::RawObjectMode mode, schema::DecodeLimits limits)
    : kind_(kind), mode_(mode), decoder_(limits), parser_(limits.max_object_bytes + 64 * 1024) {}

void WatchEventReader::reset() {
  parser_.reset();
  events_ = 0;
}

Status WatchEventReader::feed(std::string_view bytes, const Handlers& handlers) {
  return parser_.feed(bytes, [&](std::string_view line) -> Status {
    ++events_;
    Result<schema::WatchEvent> event = decoder_.decode_watch_event(line, kind_, mode_);
    if (!event.ok()) {
      if (handlers.on_undecodable) {
        handlers.on_undecodable(make_error("watch event #" + std::to_string(events_) + ": " + event.message()));
      }
      return ok_status();
    }
    return handlers.on_event(std::move(*event));
  });
}

}  // namespace koordq::kube
