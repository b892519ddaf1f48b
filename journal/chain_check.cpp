#include "journal/chain_check.hpp"

namespace koordq::journal {

std::optional<ChainBreak> ChainVerifier::add(const StoredRecord& r) {
  const uint64_t seq = anchored_ ? head_.seq + 1 : r.seq();
  auto fail = [&](std::string reason) {
    return ChainBreak{seq, "seq " + std::to_string(seq) + ": " + std::move(reason)};
  };
  if (r.seq() != seq) {
    return ChainBreak{
        seq, "seq " + std::to_string(seq) + " is missing (the next record is seq " + std::to_string(r.seq()) + ")"};
  }
  if (anchored_ && r.prev_hash() != head_.hash) {
    return fail("prevHash " + to_hex(r.prev_hash()) + " does not match the hash of seq " + std::to_string(head_.seq) +
                " (" + to_hex(head_.hash) + ")");
  }
  if (!r.hash_matches()) return fail("hash " + to_hex(r.hash()) + " is not SHA-256(prevHash ‖ record): altered");
  if (r.time() < time_) return fail("time goes backwards");
  if (r.kind() == RecordKind::kRound) {
    const uint64_t basis = r.reader().getBody().getRound().getBasis();
    if (basis != seq - 1 || previous_is_round_ || seq == 1) {
      return fail("round with basis " + std::to_string(basis) + " does not directly follow its input batch");
    }
  }
  previous_is_round_ = r.kind() == RecordKind::kRound;
  if (first_seq_ == 0) first_seq_ = seq;
  head_ = ChainHead{seq, r.hash()};
  time_ = r.time();
  anchored_ = true;
  ++records_;
  return std::nullopt;
}

ChainCheck check_chain(JournalReader& reader, ChainHead start, int64_t start_time,
                       const std::function<void(uint64_t)>& progress) {
  ChainVerifier verifier(start, start_time);
  ChainCheck check;
  auto finish = [&] {
    check.last_good = verifier.head();
    check.last_good_time = verifier.time();
    check.records = verifier.records();
    check.first_seq = verifier.first_seq();
    return check;
  };
  auto cursor = reader.cursor(start.seq + 1);
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) {
      check.first_break = ChainBreak{verifier.head().seq + 1, next.message()};
      return finish();
    }
    if (!next->has_value()) return finish();
    if (auto broken = verifier.add(**next)) {
      check.first_break = std::move(broken);
      return finish();
    }
    if (progress && verifier.records() % 65536 == 0) progress(verifier.head().seq);
  }
}

}  // namespace koordq::journal
