// `koordq journal verify` (behaviour.md §24.4) over a journal directory or an NDJSON export.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "journal/chain_check.hpp"
#include "journal/journal_reader.hpp"

namespace koordq::journal {

struct VerifyReport {
  uint64_t records = 0;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  Hash head{};
  std::optional<ChainBreak> broken;
};

using Progress = std::function<void(uint64_t seq, uint64_t records)>;

// The whole retained log from its first record (chained to the UUID when that is seq 1), and the
// HEAD file beside it when `head_file` is given.
Result<VerifyReport> verify_journal(JournalReader& reader, const std::filesystem::path& head_file,
                                    const Progress& progress = {});
// Every line: framing, chain, and that the line is exactly the rendering of its record.
VerifyReport verify_export(std::istream& in, const Progress& progress = {});

// `ok: <n> records, seq <a>..<b>, head <hash>`, or the line naming the first bad seq.
std::string render_verify_report(const VerifyReport& report);

}  // namespace koordq::journal
