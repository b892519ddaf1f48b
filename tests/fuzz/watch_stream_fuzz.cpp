// Fuzzes the WATCH body reader (kube/client/watch_stream.hpp): the input is a stream whose first
// byte seeds where it is cut into pieces. Beyond "no crash": the events and undecodable reports do
// not depend on the cuts, and the end of the stream is clean exactly when nothing but blanks
// follows the last newline.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "kube/client/watch_stream.hpp"
#include "schema/json_encode.hpp"

namespace {

using namespace koordq;

void check(bool holds, const char* invariant) {
  if (holds) return;
  std::fprintf(stderr, "invariant violated: %s\n", invariant);
  std::abort();
}

struct Read {
  std::vector<std::string> events;  // re-encoded, so that equal events compare equal
  size_t undecodable = 0;
  bool too_long = false;  // an event over the limit stopped the stream
  bool clean_end = false;
};

Read read(std::string_view bytes, uint8_t seed) {
  Read out;
  schema::DecodeLimits limits;
  limits.max_object_bytes = 64 * 1024;  // small, so the fuzzer reaches the too-long path
  kube::WatchEventReader reader(schema::ObjectKind::kQueueUnit, schema::RawObjectMode::kFull, limits);
  kube::WatchEventReader::Handlers handlers;
  handlers.on_event = [&](schema::WatchEvent&& event) {
    out.events.push_back(event.object ? schema::encode_watch_event(event.type, *event.object)
                                      : schema::encode_error_event(*event.status));
    return ok_status();
  };
  handlers.on_undecodable = [&](const Error&) { ++out.undecodable; };
  uint32_t state = seed;
  while (!bytes.empty()) {
    size_t piece = seed == 0 ? bytes.size() : 1 + (state = state * 1103515245u + 12345u) % (4u * seed);
    piece = std::min(piece, bytes.size());
    if (!reader.feed(bytes.substr(0, piece), handlers).ok()) {
      out.too_long = true;
      return out;
    }
    bytes.remove_prefix(piece);
  }
  out.clean_end = reader.finish().ok();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view bytes(reinterpret_cast<const char*>(data) + 1, size - 1);
  Read whole = read(bytes, 0);
  Read pieces = read(bytes, data[0]);
  check(whole.events == pieces.events, "the events do not depend on where the stream is cut");
  check(whole.undecodable == pieces.undecodable, "undecodable events do not depend on the cuts");
  check(whole.too_long == pieces.too_long, "a too-long event is found whatever the cuts");
  check(whole.clean_end == pieces.clean_end, "the end state does not depend on the cuts");
  size_t last_newline = bytes.rfind('\n');
  std::string_view tail = last_newline == std::string_view::npos ? bytes : bytes.substr(last_newline + 1);
  bool blank_tail = tail.find_first_not_of(" \t\r") == std::string_view::npos;
  if (!whole.too_long) check(whole.clean_end == blank_tail, "the end is clean iff only blanks follow the last newline");
  return 0;
}
