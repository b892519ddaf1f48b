#include "journal/capnp_record_body.hpp"

#include "schema/canonical.hpp"

namespace koordq::journal {

CapnpRecordBody::CapnpRecordBody()
    // Most records are a few hundred bytes: a 2 KiB first segment instead of the default 8 KiB.
    : message_(std::make_unique<capnp::MallocMessageBuilder>(256)), root_(message_->initRoot<wire::Record>()) {}

RecordKind CapnpRecordBody::kind() const {
  return static_cast<RecordKind>(static_cast<unsigned>(root_.asReader().getBody().which()));
}

std::string CapnpRecordBody::canonical_bytes(uint64_t seq, int64_t time, const Hash& prev_hash) const {
  // The builder is only mutated here, by the single writer thread, before it is read again.
  auto root = root_;
  root.setSeq(seq);
  root.setTime(time);
  root.setPrevHash(capnp::Data::Reader(prev_hash.data(), prev_hash.size()));
  root.disownHash();
  return schema::canonical_bytes(root.asReader());
}

}  // namespace koordq::journal
