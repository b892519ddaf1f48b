// Cap'n Proto messages as bytes: the flat (unpacked) framing every stored message uses, and a
// reader that owns an aligned copy of bytes from anywhere (G4: readers need 8-byte alignment).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <capnp/message.h>
#include <kj/exception.h>

#include "base/result.hpp"

namespace koordq::wire {

// Segment table followed by the segments (capnp::messageToFlatArray's format).
std::string message_bytes(capnp::MessageBuilder& message);

// Limits for reading `words` words of untrusted input: nesting 32; traversal 64 words per input
// word but at least `minimum_traversal` words. The floor matters for canonical bytes, where a
// list of all-zero structs shrinks to zero-sized elements that still count a word each to read.
capnp::ReaderOptions reader_options(size_t words, uint64_t minimum_traversal = uint64_t{8} << 20);

// A message read from bytes it owns a word-aligned copy of.
class FlatMessage {
 public:
  // Bytes as message_bytes writes them; the whole input must be one message.
  static Result<FlatMessage> open(std::string_view bytes);
  // A single segment without a segment table, e.g. canonical bytes (canonical_record_bytes).
  static Result<FlatMessage> open_segment(std::string_view bytes);
  // Like open_segment, but reads word-aligned bytes where they are (they must outlive the
  // message); only unaligned ones are copied.
  static Result<FlatMessage> borrow_segment(std::string_view bytes);

  FlatMessage(FlatMessage&&) noexcept;
  FlatMessage& operator=(FlatMessage&&) noexcept;
  ~FlatMessage();

  // Throws kj::Exception when the message is malformed where it is read.
  template <class T>
  typename T::Reader root() const {
    return reader().getRoot<T>();
  }

 private:
  struct Storage;
  explicit FlatMessage(std::unique_ptr<Storage> storage);
  static Result<FlatMessage> read_segment(std::unique_ptr<Storage> storage, kj::ArrayPtr<const capnp::word> words);
  capnp::MessageReader& reader() const;

  std::unique_ptr<Storage> storage_;
};

// The number of 8-byte words in `bytes`, or an Error when they are empty or not whole words.
Result<size_t> word_count(std::string_view bytes);

// A kj::Exception's description, for Error messages at the edge.
std::string describe(const kj::Exception& e);

}  // namespace koordq::wire
