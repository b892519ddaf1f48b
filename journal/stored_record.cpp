#include "journal/stored_record.hpp"

#include <cstring>

#include <kj/exception.h>

namespace koordq::journal {

Result<StoredRecord> StoredRecord::parse(std::string_view value) {
  if (value.size() < 32 + sizeof(capnp::word) || (value.size() - 32) % sizeof(capnp::word) != 0) {
    return make_error("record of " + std::to_string(value.size()) + " bytes is not B ‖ 32-byte hash");
  }
  StoredRecord r;
  const size_t b_size = value.size() - 32;
  from_bytes(value.substr(b_size), r.hash_);
  r.words_ = kj::heapArray<capnp::word>(value.size() / sizeof(capnp::word));
  std::memcpy(r.words_.begin(), value.data(), value.size());
  try {
    capnp::ReaderOptions options;
    options.traversalLimitInWords = 64 * 1024 * 1024;
    r.segment_ = std::make_unique<kj::ArrayPtr<const capnp::word>>(r.words_.begin(), b_size / sizeof(capnp::word));
    r.message_ = std::make_unique<capnp::SegmentArrayMessageReader>(
        kj::ArrayPtr<const kj::ArrayPtr<const capnp::word>>(r.segment_.get(), 1), options);
    r.root_ = r.message_->getRoot<wire::Record>();
    r.seq_ = r.root_.getSeq();
    r.time_ = r.root_.getTime();
    const auto which = static_cast<unsigned>(r.root_.getBody().which());
    if (which >= static_cast<unsigned>(kRecordKindCount)) {
      return make_error("record " + std::to_string(r.seq_) + " has an unknown kind (" + std::to_string(which) +
                        "): written by a newer koordq?");
    }
    r.kind_ = static_cast<RecordKind>(which);
    const auto prev = r.root_.getPrevHash();
    if (!from_bytes(std::string_view(reinterpret_cast<const char*>(prev.begin()), prev.size()), r.prev_hash_)) {
      return make_error("record " + std::to_string(r.seq_) + " has a prevHash of " + std::to_string(prev.size()) +
                        " bytes");
    }
  } catch (const kj::Exception& e) {
    return make_error(std::string("record does not decode: ") + e.getDescription().cStr());
  }
  return r;
}

bool StoredRecord::hash_matches() const {
  return chain_hash(prev_hash_, canonical_bytes()) == hash_;
}

}  // namespace koordq::journal
