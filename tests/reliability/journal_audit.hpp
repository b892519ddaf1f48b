// What must hold of a journal after its writer was killed or its disk ran full (design.md §5): it
// reopens under --journal-on-corruption=fail; the log is dense from seq 1 and its chain intact,
// HEAD included; every acknowledged record is there with the hash it was acknowledged with; and
// the time index holds exactly the log's records, so nothing torn or failed stays readable.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace koordq::reliability {

// seq → hash hex of every record acknowledged so far.
using AckedRecords = std::map<uint64_t, std::string>;

struct JournalAudit {
  std::vector<std::string> failures;
  uint64_t last_seq = 0;
  uint64_t head_file_seq = 0;      // HEAD as found (0 when absent)
  uint64_t truncated_records = 0;  // the torn tail recovery dropped
};

// Reopens the journal in `dir`, checks it, and closes it again (a clean close).
JournalAudit audit_journal(const std::filesystem::path& dir, const AckedRecords& acked);

}  // namespace koordq::reliability
