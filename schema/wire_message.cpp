#include "schema/wire_message.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <capnp/serialize.h>

namespace koordq::wire {

static_assert(std::endian::native == std::endian::little, "Cap'n Proto framing is written as host order");

std::string message_bytes(capnp::MessageBuilder& message) {
  auto segments = message.getSegmentsForOutput();
  const size_t table_words = segments.size() / 2 + 1;
  size_t total_words = table_words;
  for (auto segment : segments) total_words += segment.size();

  std::string out(total_words * sizeof(capnp::word), '\0');
  char* at = out.data();
  auto put_u32 = [&at](uint32_t v) {
    std::memcpy(at, &v, sizeof v);
    at += sizeof v;
  };
  put_u32(static_cast<uint32_t>(segments.size() - 1));
  for (auto segment : segments) put_u32(static_cast<uint32_t>(segment.size()));
  at = out.data() + table_words * sizeof(capnp::word);
  for (auto segment : segments) {
    const auto bytes = segment.asBytes();
    std::memcpy(at, bytes.begin(), bytes.size());
    at += bytes.size();
  }
  return out;
}

capnp::ReaderOptions reader_options(size_t words, uint64_t minimum_traversal) {
  capnp::ReaderOptions options;
  options.traversalLimitInWords = std::max<uint64_t>(uint64_t{64} * words, minimum_traversal);
  options.nestingLimit = 32;
  return options;
}

struct FlatMessage::Storage {
  kj::Array<capnp::word> words;
  kj::ArrayPtr<const capnp::word> segments[1];  // open_segment's reader keeps a pointer to this
  kj::Own<capnp::MessageReader> reader;
};

FlatMessage::FlatMessage(std::unique_ptr<Storage> storage) : storage_(std::move(storage)) {}
FlatMessage::FlatMessage(FlatMessage&&) noexcept = default;
FlatMessage& FlatMessage::operator=(FlatMessage&&) noexcept = default;
FlatMessage::~FlatMessage() = default;

capnp::MessageReader& FlatMessage::reader() const {
  return *storage_->reader;
}

namespace {

Result<kj::Array<capnp::word>> aligned_copy(std::string_view bytes) {
  auto count = word_count(bytes);
  if (!count) return count.error();
  auto words = kj::heapArray<capnp::word>(*count);
  std::memcpy(words.begin(), bytes.data(), bytes.size());
  return words;
}

}  // namespace

Result<FlatMessage> FlatMessage::open(std::string_view bytes) {
  auto words = aligned_copy(bytes);
  if (!words) return words.error();
  try {
    auto storage = std::make_unique<Storage>();
    storage->words = std::move(*words);
    auto reader =
        kj::heap<capnp::FlatArrayMessageReader>(storage->words.asPtr(), reader_options(storage->words.size()));
    if (reader->getEnd() != storage->words.end()) {
      return make_error("Cap'n Proto message is followed by " +
                        std::to_string((storage->words.end() - reader->getEnd()) * sizeof(capnp::word)) +
                        " unexpected bytes");
    }
    storage->reader = std::move(reader);
    return FlatMessage(std::move(storage));
  } catch (const kj::Exception& e) {
    return make_error("malformed Cap'n Proto message: " + describe(e));
  }
}

Result<FlatMessage> FlatMessage::read_segment(std::unique_ptr<Storage> storage, kj::ArrayPtr<const capnp::word> words) {
  try {
    storage->segments[0] = words;
    storage->reader =
        kj::heap<capnp::SegmentArrayMessageReader>(kj::arrayPtr(storage->segments, 1), reader_options(words.size()));
    return FlatMessage(std::move(storage));
  } catch (const kj::Exception& e) {
    return make_error("malformed Cap'n Proto segment: " + describe(e));
  }
}

Result<FlatMessage> FlatMessage::open_segment(std::string_view bytes) {
  auto words = aligned_copy(bytes);
  if (!words) return words.error();
  auto storage = std::make_unique<Storage>();
  storage->words = std::move(*words);
  const auto view = storage->words.asPtr();
  return read_segment(std::move(storage), view);
}

Result<FlatMessage> FlatMessage::borrow_segment(std::string_view bytes) {
  if (reinterpret_cast<uintptr_t>(bytes.data()) % alignof(capnp::word) != 0) return open_segment(bytes);
  auto count = word_count(bytes);
  if (!count) return count.error();
  return read_segment(std::make_unique<Storage>(),
                      kj::arrayPtr(reinterpret_cast<const capnp::word*>(bytes.data()), *count));
}

Result<size_t> word_count(std::string_view bytes) {
  if (bytes.empty()) return make_error("empty Cap'n Proto message");
  if (bytes.size() % sizeof(capnp::word) != 0) {
    return make_error("Cap'n Proto message of " + std::to_string(bytes.size()) +
                      " bytes is not a whole number of 8-byte words");
  }
  return bytes.size() / sizeof(capnp::word);
}

std::string describe(const kj::Exception& e) {
  return std::string(e.getDescription().cStr());
}

}  // namespace koordq::wire
