// `koordq journal stat` (behaviour.md §24.4): records by kind, seq and time range, snapshots,
// bytes on disk, head hash, UUID.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "base/result.hpp"
#include "journal/hash_chain.hpp"
#include "journal/journal_reader.hpp"
#include "journal/record_kind.hpp"

namespace koordq::journal {

struct JournalStat {
  std::string uuid;
  uint64_t records = 0;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  int64_t first_time = 0;
  int64_t last_time = 0;
  std::array<uint64_t, kRecordKindCount> kinds{};
  uint64_t snapshots = 0;
  uint64_t bytes = 0;
  Hash head{};
};

Result<JournalStat> journal_stat(JournalReader& reader);
std::string render_stat_text(const JournalStat& s);
std::string render_stat_json(const JournalStat& s);

}  // namespace koordq::journal
