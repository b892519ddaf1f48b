// `koordq journal verify` (behaviour.md §24.4) over a journal directory or an NDJSON export.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "journal/chain_check.hpp"
#include "journal/export_trailer.hpp"
#include "journal/journal_reader.hpp"
#include "journal/signing_key.hpp"

namespace koordq::journal {

struct VerifyReport {
  uint64_t records = 0;
  uint64_t first_seq = 0;
  uint64_t last_seq = 0;
  Hash head{};
  std::optional<ChainBreak> broken;
  // With a public key: the key that signed HEAD (or the trailer) and the seq it signed.
  std::string signed_by;
  uint64_t signed_seq = 0;
};

using Progress = std::function<void(uint64_t seq, uint64_t records)>;

// The whole retained log from its first record (chained to the UUID when that is seq 1, else to
// the retention cut), and the HEAD file beside it when `head_file` is given (missing HEAD beside
// records is a break). With `key`, HEAD and the retention cut must carry its signature.
Result<VerifyReport> verify_journal(JournalReader& reader, const std::filesystem::path& head_file,
                                    const Progress& progress = {}, const VerifyingKey* key = nullptr);
// Every line: framing, chain, that the line is exactly the rendering of its record, and that the
// export ends with its trailer (export_trailer.hpp), which names what it holds. With `key`, the
// trailer must carry its signature.
VerifyReport verify_export(std::istream& in, const Progress& progress = {}, const VerifyingKey* key = nullptr);

// The checks of verify_export one line at a time, for readers of an export that use its records
// (replay --export): a line is accepted only when it extends the chain and renders back to itself.
class ExportLineChecker {
 public:
  explicit ExportLineChecker(const VerifyingKey* key = nullptr) : key_(key) {}
  // The record on `line` (std::nullopt for an empty line or the trailer), or the break, which
  // every later call returns again. The trailer must match the records before it; a line after
  // it is a break.
  Result<std::optional<StoredRecord>> add(std::string_view line);
  // The same, given record_of_rendered_line(line) (export_line_read_ahead.hpp matches lines ahead).
  Result<std::optional<StoredRecord>> add(std::string_view line, std::optional<StoredRecord> rendered);
  // At the end of the input: a break when no trailer was seen (the export was cut at its end).
  const std::optional<ChainBreak>& finish();
  const std::optional<ExportTrailer>& trailer() const { return trailer_; }
  const std::optional<ChainBreak>& broken() const { return broken_; }
  uint64_t records() const { return verifier_.records(); }
  // What was accepted so far (records, first and last seq, head).
  VerifyReport report() const;

 private:
  std::optional<ChainBreak> check_trailer(const ExportTrailer& trailer) const;

  const VerifyingKey* key_;
  ChainVerifier verifier_;
  uint64_t line_number_ = 0;
  Hash first_prev_hash_{};
  std::optional<ExportTrailer> trailer_;
  std::optional<ChainBreak> broken_;
};

// With a public key: the records after the last signed seq, which no signature covers (behaviour.md
// §24.4: reported, exit 0; a serve writing now signs HEAD just after each durable group).
uint64_t records_after_signature(const VerifyReport& report);

// `ok: <n> records, seq <a>..<b>, head <hash>`, or the line naming the first bad seq.
std::string render_verify_report(const VerifyReport& report);

}  // namespace koordq::journal
