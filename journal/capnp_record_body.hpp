// RecordBody for a Cap'n Proto Record whose body the producer has filled.
#pragma once

#include <memory>
#include <optional>

#include <capnp/message.h>

#include "journal/record_body.hpp"
#include "schema/record.capnp.h"

namespace koordq::journal {

class CapnpRecordBody final : public RecordBody {
 public:
  CapnpRecordBody();
  // The record to fill: set `body` (and nothing else; the journal sets seq, time and the hashes).
  wire::Record::Builder record() { return root_; }
  void set_explicit_time(int64_t unix_nanos) { explicit_time_ = unix_nanos; }

  RecordKind kind() const override;
  std::string canonical_bytes(uint64_t seq, int64_t time, const Hash& prev_hash) const override;
  std::optional<int64_t> explicit_time() const override { return explicit_time_; }

 private:
  std::unique_ptr<capnp::MallocMessageBuilder> message_;
  wire::Record::Builder root_;
  std::optional<int64_t> explicit_time_;
};

}  // namespace koordq::journal
