#include "journal/chain_check.hpp"

namespace koordq::journal {

ChainCheck check_chain(JournalReader& reader, ChainHead start, int64_t start_time,
                       const std::function<void(uint64_t)>& progress) {
  ChainCheck check;
  check.last_good = start;
  check.last_good_time = start_time;
  bool previous_is_round = false;
  auto cursor = reader.cursor(start.seq + 1);
  for (;;) {
    const uint64_t seq = check.last_good.seq + 1;
    auto next = cursor.next();
    if (!next.ok()) {
      check.first_break = ChainBreak{seq, next.message()};
      return check;
    }
    if (!next->has_value()) return check;
    const StoredRecord& r = **next;
    auto fail = [&](std::string reason) {
      check.first_break = ChainBreak{seq, "seq " + std::to_string(seq) + ": " + std::move(reason)};
    };
    if (r.prev_hash() != check.last_good.hash) {
      fail("prevHash " + to_hex(r.prev_hash()) + " does not match the hash of seq " +
           std::to_string(check.last_good.seq) + " (" + to_hex(check.last_good.hash) + ")");
      return check;
    }
    if (!r.hash_matches()) {
      fail("hash " + to_hex(r.hash()) + " is not SHA-256(prevHash ‖ record): the record was altered");
      return check;
    }
    if (r.time() < check.last_good_time) {
      fail("time goes backwards");
      return check;
    }
    if (r.kind() == RecordKind::kRound) {
      const uint64_t basis = r.reader().getBody().getRound().getBasis();
      if (basis != seq - 1 || previous_is_round || seq == 1) {
        fail("round with basis " + std::to_string(basis) + " does not directly follow its input batch");
        return check;
      }
    }
    previous_is_round = r.kind() == RecordKind::kRound;
    if (check.first_seq == 0) check.first_seq = seq;
    check.last_good = ChainHead{seq, r.hash()};
    check.last_good_time = r.time();
    ++check.records;
    if (progress && check.records % 65536 == 0) progress(seq);
  }
}

}  // namespace koordq::journal
