#include "journal/verify.hpp"

#include <kj/exception.h>

#include "journal/audit_line.hpp"
#include "journal/export_line.hpp"
#include "journal/export_line_read_ahead.hpp"
#include "journal/head_file.hpp"
#include "journal/retention_cut.hpp"
#include "journal/signed_statements.hpp"
#include "journal/snapshot_anchor.hpp"

namespace koordq::journal {
namespace {

void fill_report(VerifyReport& report, const ChainVerifier& v) {
  report.records = v.records();
  report.first_seq = v.first_seq();
  report.last_seq = v.head().seq;
  report.head = v.head().hash;
}

}  // namespace

namespace {

// HEAD beside a log that verified up to report.last_seq: present when the log has records, not
// ahead of the log, naming the hash the log has at its seq, and signed by `key` when given.
std::optional<ChainBreak> check_head_file(JournalReader& reader, const std::filesystem::path& head_file,
                                          std::string_view uuid, const VerifyingKey* key, VerifyReport& report) {
  std::optional<Signature> signature;
  auto head = read_head_file(head_file, &signature);
  if (!head.ok()) return ChainBreak{report.last_seq + 1, head.message()};
  if (!head->has_value()) {
    if (report.records == 0 && reader.first_seq() == 0) return std::nullopt;
    return ChainBreak{report.last_seq + 1, "the HEAD file is missing beside a log that ends at seq " +
                                               std::to_string(report.last_seq) +
                                               ": HEAD was deleted, and the records after it may have been cut"};
  }
  const ChainHead& h = **head;
  if (h.seq > report.last_seq) {
    return ChainBreak{report.last_seq + 1, "HEAD names seq " + std::to_string(h.seq) + " but the log ends at seq " +
                                               std::to_string(report.last_seq) + ": records were lost"};
  }
  if (h.seq >= report.first_seq && h.seq > 0) {
    auto rec = reader.get(h.seq);
    if (rec.ok() && rec->has_value() && (*rec)->hash() != h.hash) {
      return ChainBreak{h.seq,
                        "seq " + std::to_string(h.seq) + " does not have the hash HEAD names: the log was rewritten"};
    }
  }
  if (key == nullptr) return std::nullopt;
  if (!signature) {
    return ChainBreak{h.seq, "HEAD (seq " + std::to_string(h.seq) +
                                 ") is not signed, but --public-key was given: HEAD was rewritten, or written by a "
                                 "serve without --journal-signing-key-file"};
  }
  if (!key->verifies(head_statement(uuid, h.seq, h.hash), *signature)) {
    return ChainBreak{h.seq, "HEAD (seq " + std::to_string(h.seq) + ") is not signed by key " + key->key_id() +
                                 " (its signature names key " + signature->key_id + "): HEAD was rewritten"};
  }
  report.signed_by = key->key_id();
  report.signed_seq = h.seq;
  return std::nullopt;
}

}  // namespace

Result<VerifyReport> verify_journal(JournalReader& reader, const std::filesystem::path& head_file,
                                    const Progress& progress, const VerifyingKey* key) {
  auto uuid = reader.uuid();
  if (!uuid.ok()) {
    // An empty database beside a HEAD that names records lost them (with its WAL, say).
    auto head = head_file.empty() ? Result<std::optional<ChainHead>>(std::nullopt) : read_head_file(head_file);
    if (reader.last_seq() == 0 && head.ok() && head->has_value() && (*head)->seq > 0) {
      VerifyReport report;
      report.broken = ChainBreak{
          1, "HEAD names seq " + std::to_string((*head)->seq) + " but the journal is empty: records were lost"};
      return report;
    }
    return uuid.error();
  }
  VerifyReport report;
  const RetainedStart retained = retained_chain_start(reader, *uuid, key);
  if (retained.broken) {
    report.broken = retained.broken;
    return report;
  }
  const ChainHead start = retained.start;
  ChainVerifier verifier(start, INT64_MIN);
  auto cursor = reader.cursor(start.seq + 1);
  for (;;) {
    auto next = cursor.next();
    if (!next.ok()) {
      report.broken = ChainBreak{verifier.head().seq + 1, next.message()};
      break;
    }
    if (!next->has_value()) break;
    if (auto broken = verifier.add(**next)) {
      report.broken = std::move(broken);
      break;
    }
    if (progress && verifier.records() % 16384 == 0) progress(verifier.head().seq, verifier.records());
  }
  fill_report(report, verifier);
  if (!report.broken && !head_file.empty()) report.broken = check_head_file(reader, head_file, *uuid, key, report);
  for (const auto& entry : report.broken ? std::vector<SnapshotEntry>{} : reader.snapshots()) {
    auto snapshot = reader.unchecked_latest_snapshot_at_or_before(entry.seq);
    if (!snapshot.ok()) return snapshot.error();
    if (!snapshot->has_value()) continue;
    if (auto mismatch = snapshot_anchor_mismatch(reader, entry.seq, (*snapshot)->second, key)) {
      report.broken = ChainBreak{entry.seq, *mismatch};
      break;
    }
  }
  return report;
}

Result<std::optional<StoredRecord>> ExportLineChecker::add(std::string_view line) {
  return add(line, record_of_rendered_line(line));
}

Result<std::optional<StoredRecord>> ExportLineChecker::add(std::string_view line,
                                                           std::optional<StoredRecord> rendered) {
  using Out = std::optional<StoredRecord>;
  if (broken_) return make_error(broken_->reason);
  ++line_number_;
  if (line.empty()) return Out{};
  const uint64_t expected = verifier_.records() ? verifier_.head().seq + 1 : 0;
  auto where = [&] { return "line " + std::to_string(line_number_); };
  auto fail = [&](ChainBreak b) -> Result<Out> {
    broken_ = std::move(b);
    return make_error(broken_->reason);
  };
  if (trailer_) {
    return fail(
        ChainBreak{trailer_->last_seq + 1, where() + ": a line after the trailer (which ends the export at seq " +
                                               std::to_string(trailer_->last_seq) + "): the export was extended"});
  }
  if (is_export_trailer_line(line)) {
    auto trailer = parse_export_trailer(line);
    if (!trailer.ok()) return fail(ChainBreak{expected, where() + ": " + trailer.message()});
    if (auto broken = check_trailer(*trailer)) {
      broken->reason = where() + ": " + broken->reason;
      return fail(std::move(*broken));
    }
    trailer_ = std::move(trailer).value();
    return Out{};
  }
  if (line.starts_with(kAuditLineStart)) {
    return fail(ChainBreak{expected, where() + " is an audit.k8s.io/v1 Event: journal verify --export checks an "
                                               "NDJSON export (journal export --format ndjson), whose lines are the "
                                               "records themselves"});
  }
  uint64_t claimed = 0;
  const bool is_rendering = rendered.has_value();
  Result<StoredRecord> record =
      is_rendering ? Result<StoredRecord>(std::move(*rendered)) : parse_export_line(line, &claimed);
  if (is_rendering) claimed = record->seq();
  const uint64_t named = expected ? expected : claimed;
  if (!record.ok()) return fail(ChainBreak{named, where() + ": " + record.message()});
  if (record->seq() == 1 && record->kind() == RecordKind::kConfig) {
    std::string uuid;
    try {
      uuid = record->reader().getBody().getConfig().getJournalUuid();
    } catch (const kj::Exception&) {
      return fail(ChainBreak{1, where() + ": seq 1: the config record cannot be read"});
    }
    if (record->prev_hash() != genesis_hash(uuid)) {
      return fail(ChainBreak{1, where() + ": seq 1 is not chained to the journal UUID it names"});
    }
  }
  if (auto broken = verifier_.add(*record)) {
    if (expected == 0) broken->seq = claimed;
    broken->reason = where() + ": " + broken->reason;
    return fail(std::move(*broken));
  }
  if (!is_rendering && render_export_line(*record) != line) {
    return fail(ChainBreak{named, where() + ": seq " + std::to_string(named) +
                                      ": the line is not the rendering of its record (edited JSON)"});
  }
  if (verifier_.records() == 1) first_prev_hash_ = record->prev_hash();
  return Out{std::move(record).value()};
}

std::optional<ChainBreak> ExportLineChecker::check_trailer(const ExportTrailer& t) const {
  const uint64_t records = verifier_.records();
  const uint64_t first = verifier_.first_seq();
  const uint64_t last = verifier_.head().seq;
  if (records > 0 && t.first_seq != first) {
    return ChainBreak{std::min(first, t.first_seq), "the export starts at seq " + std::to_string(first) +
                                                        ", but its trailer says firstSeq " +
                                                        std::to_string(t.first_seq) + ": it was cut at its start"};
  }
  if (t.last_seq != last || t.records != records) {
    const bool cut = t.last_seq > last || t.records > records;
    return ChainBreak{cut ? last + 1 : t.last_seq + 1,
                      "the export ends at seq " + std::to_string(last) + " with " + std::to_string(records) +
                          " records, but its trailer says lastSeq " + std::to_string(t.last_seq) + " and " +
                          std::to_string(t.records) + " records" +
                          (cut ? ": it was cut at its end" : ": it was extended")};
  }
  if (records > 0 && (t.first_prev_hash != first_prev_hash_ || t.head != verifier_.head().hash)) {
    return ChainBreak{first, "the export's chain (prevHash of seq " + std::to_string(first) + ", head " +
                                 to_hex(verifier_.head().hash) +
                                 ") is not the one its trailer names: it was re-chained"};
  }
  if (records > 0 && t.first_seq == 1 && t.first_prev_hash != genesis_hash(t.journal_uuid)) {
    return ChainBreak{1, "seq 1 is not chained to the journal UUID the trailer names (" + t.journal_uuid + ")"};
  }
  if (key_ == nullptr) return std::nullopt;
  const uint64_t at = records ? last : 0;
  if (!t.signature) {
    return ChainBreak{at,
                      "the trailer is not signed, but --public-key was given: the export was forged, or made "
                      "without --journal-signing-key-file"};
  }
  if (!verifies_export_trailer(t, *key_)) {
    return ChainBreak{at, "the trailer is not signed by key " + key_->key_id() + " (its signature names key " +
                              t.signature->key_id + "): the export was forged or re-chained"};
  }
  return std::nullopt;
}

const std::optional<ChainBreak>& ExportLineChecker::finish() {
  if (!broken_ && !trailer_) {
    broken_ = ChainBreak{verifier_.head().seq + 1,
                         "the export ends at line " + std::to_string(line_number_) + " (seq " +
                             std::to_string(verifier_.head().seq) +
                             ") without its trailer: it was cut at its end, or written by a koordq before export "
                             "trailers (export the journal again)"};
  }
  return broken_;
}

VerifyReport ExportLineChecker::report() const {
  VerifyReport report;
  fill_report(report, verifier_);
  report.broken = broken_;
  if (!broken_ && key_ != nullptr && trailer_) {
    report.signed_by = key_->key_id();
    report.signed_seq = trailer_->last_seq;
  }
  return report;
}

VerifyReport verify_export(std::istream& in, const Progress& progress, const VerifyingKey* key) {
  ExportLineChecker checker(key);
  ExportLineReadAhead lines(in);
  while (ExportLineReadAhead::Line* line = lines.next()) {
    auto record = checker.add(line->text, std::move(line->rendered));
    if (!record.ok()) break;
    if (progress && record->has_value() && checker.records() % 16384 == 0) {
      progress((*record)->seq(), checker.records());
    }
  }
  checker.finish();
  return checker.report();
}

uint64_t records_after_signature(const VerifyReport& r) {
  if (r.broken || r.signed_by.empty() || r.last_seq <= r.signed_seq) return 0;
  return r.last_seq - r.signed_seq;
}

std::string render_verify_report(const VerifyReport& r) {
  if (r.broken) {
    // Reasons name the seq themselves ("seq 7: …"); say it once, up front.
    std::string reason = r.broken->reason;
    const std::string own = "seq " + std::to_string(r.broken->seq) + ": ";
    if (const auto at = reason.find(own); at != std::string::npos) reason.erase(at, own.size());
    return "broken at seq " + std::to_string(r.broken->seq) + ": " + reason;
  }
  std::string signed_by =
      r.signed_by.empty() ? "" : ", signed by key " + r.signed_by + " up to seq " + std::to_string(r.signed_seq);
  if (const uint64_t uncovered = records_after_signature(r); uncovered > 0) {
    signed_by += " (" + std::to_string(uncovered) + (uncovered == 1 ? " record" : " records") +
                 " after it not covered by a signature)";
  }
  if (r.records == 0) return "ok: 0 records" + signed_by;
  return "ok: " + std::to_string(r.records) + " records, seq " + std::to_string(r.first_seq) + ".." +
         std::to_string(r.last_seq) + ", head " + to_hex(r.head) + signed_by;
}

}  // namespace koordq::journal
