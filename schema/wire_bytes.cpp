#include "schema/wire_bytes.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <capnp/message.h>
#include <capnp/serialize.h>

#include "schema/wire_codec.hpp"
#include "schema/wire_message.hpp"

namespace koordq::schema {

namespace {

// Sized for a typical QueueUnit, so most messages need one allocation-free segment.
constexpr size_t kScratchWords = 1024;
// An aligned copy buffer larger than this is not kept for the next call.
constexpr size_t kMaxKeptWords = 64 * 1024;

// MallocMessageBuilder requires a reused first segment to start zeroed, and zeroes what it used
// when it is destroyed.
kj::ArrayPtr<capnp::word> builder_scratch() {
  thread_local kj::Array<capnp::word> scratch = [] {
    auto words = kj::heapArray<capnp::word>(kScratchWords);
    std::memset(words.begin(), 0, words.asBytes().size());
    return words;
  }();
  return scratch;
}

// `bytes` as words: in place when they happen to be aligned (heap strings are), else a copy.
const capnp::word* aligned_words(std::string_view bytes) {
  if (reinterpret_cast<uintptr_t>(bytes.data()) % alignof(capnp::word) == 0) {
    return reinterpret_cast<const capnp::word*>(bytes.data());
  }
  thread_local kj::Array<capnp::word> copy;
  const size_t words = bytes.size() / sizeof(capnp::word);
  if (copy.size() < words || copy.size() > kMaxKeptWords) {
    copy = kj::heapArray<capnp::word>(std::max(words, kScratchWords));
  }
  std::memcpy(copy.begin(), bytes.data(), bytes.size());
  return copy.begin();
}

}  // namespace

std::string to_capnp_bytes(const WatchedObject& object) {
  capnp::MallocMessageBuilder message(builder_scratch());
  write_watched_object(message.initRoot<wire::WatchedObject>(), object);
  return wire::message_bytes(message);
}

Result<WatchedObject> from_capnp_bytes(std::string_view bytes) {
  auto count = wire::word_count(bytes);
  if (!count) return count.error();
  const size_t words = *count;
  const capnp::word* begin = aligned_words(bytes);
  try {
    // Our own writer never emits zero-sized list elements, so a small traversal floor suffices.
    capnp::FlatArrayMessageReader reader(kj::arrayPtr(begin, words), wire::reader_options(words, kScratchWords));
    if (reader.getEnd() != begin + words) return make_error("Cap'n Proto message is followed by unexpected bytes");
    return read_watched_object(reader.getRoot<wire::WatchedObject>());
  } catch (const kj::Exception& e) {
    return make_error("malformed Cap'n Proto WatchedObject: " + wire::describe(e));
  }
}

}  // namespace koordq::schema
