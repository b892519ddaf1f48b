// The body of a WATCH answer: one JSON watch event per line (`{"type":"ADDED","object":{…}}\n`),
// arriving in pieces that need not match events (HTTP chunks, TCP segments). WatchStreamParser
// cuts complete lines out of the pieces; WatchEventReader decodes them with schema::JsonDecoder.
// An event can be split anywhere and be as large as the decoder allows (objects up to ~1.5 MB);
// a stream that ends inside an event is reported as such.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "schema/json_decode.hpp"

namespace koordq::kube {

class WatchStreamParser {
 public:
  explicit WatchStreamParser(size_t max_event_bytes);

  // Appends `bytes` and calls `on_line` with every line completed by them (without its '\n';
  // blank lines are skipped). An error from `on_line` stops at that line and is returned, as is
  // an event longer than the limit (the stream cannot be resynchronised then).
  Status feed(std::string_view bytes, const std::function<Status(std::string_view)>& on_line);

  // At the end of the stream: an error when it ended inside an event.
  Status finish() const;

  // Bytes of an incomplete event held so far.
  size_t pending_bytes() const { return partial_.size(); }
  void reset() { partial_.clear(); }

 private:
  Status too_long() const;

  size_t max_event_bytes_;
  std::string partial_;
};

// ERROR with metav1.Status code 410 (Gone): the watch's resourceVersion is too old and a relist is
// due (design.md §7). What an HTTP 410 answer to a WATCH request means too.
bool is_expired(const schema::WatchEvent& event);

class WatchEventReader {
 public:
  struct Handlers {
    // A decoded event of any type (ERROR included); an error stops the stream.
    std::function<Status(schema::WatchEvent&&)> on_event;
    // An event that does not decode (its error names the event's ordinal); the stream goes on.
    std::function<void(const Error&)> on_undecodable;
  };

  WatchEventReader(schema::ObjectKind kind, schema::RawObjectMode mode, schema::DecodeLimits limits = {});

  Status feed(std::string_view bytes, const Handlers& handlers);
  Status finish() const { return parser_.finish(); }
  void reset();

  size_t events() const { return events_; }

 private:
  schema::ObjectKind kind_;
  schema::RawObjectMode mode_;
  schema::JsonDecoder decoder_;
  WatchStreamParser parser_;
  size_t events_ = 0;
};

}  // namespace koordq::kube
