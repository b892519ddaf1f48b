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

// The checks of verify_export one line at a time, for readers of an export that use its records
// (replay --export): a line is accepted only when it extends the chain and renders back to itself.
class ExportLineChecker {
 public:
  // The record on `line` (std::nullopt for an empty line), or the break, which every later call
  // returns again.
  Result<std::optional<StoredRecord>> add(const std::string& line);
  const std::optional<ChainBreak>& broken() const { return broken_; }
  uint64_t records() const { return verifier_.records(); }
  // What was accepted so far (records, first and last seq, head).
  VerifyReport report() const;

 private:
  ChainVerifier verifier_;
  uint64_t line_number_ = 0;
  std::optional<ChainBreak> broken_;
};

// `ok: <n> records, seq <a>..<b>, head <hash>`, or the line naming the first bad seq.
std::string render_verify_report(const VerifyReport& report);

}  // namespace koordq::journal
