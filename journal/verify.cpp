#include "journal/verify.hpp"

#include <kj/exception.h>

#include "journal/export_line.hpp"
#include "journal/head_file.hpp"

namespace koordq::journal {
namespace {

void finish(VerifyReport& report, const ChainVerifier& v) {
  report.records = v.records();
  report.first_seq = v.first_seq();
  report.last_seq = v.head().seq;
  report.head = v.head().hash;
}

}  // namespace

Result<VerifyReport> verify_journal(JournalReader& reader, const std::filesystem::path& head_file,
                                    const Progress& progress) {
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
  const uint64_t first = reader.first_seq();
  ChainHead start{0, genesis_hash(*uuid)};
  if (first > 1) {
    auto rec = reader.get(first);
    if (!rec.ok()) return rec.error();
    if (rec->has_value()) start = ChainHead{first - 1, (*rec)->prev_hash()};
  }
  ChainVerifier verifier(start, INT64_MIN);
  VerifyReport report;
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
  finish(report, verifier);
  if (!report.broken && !head_file.empty()) {
    auto head = read_head_file(head_file);
    if (!head.ok()) {
      report.broken = ChainBreak{report.last_seq + 1, head.message()};
    } else if (head->has_value() && (*head)->seq > report.last_seq) {
      report.broken = ChainBreak{report.last_seq + 1, "HEAD names seq " + std::to_string((*head)->seq) +
                                                          " but the log ends at seq " +
                                                          std::to_string(report.last_seq) + ": records were lost"};
    } else if (head->has_value() && (*head)->seq >= report.first_seq && (*head)->seq > 0) {
      auto rec = reader.get((*head)->seq);
      if (rec.ok() && rec->has_value() && (*rec)->hash() != (*head)->hash) {
        report.broken = ChainBreak{(*head)->seq, "seq " + std::to_string((*head)->seq) +
                                                     " does not have the hash HEAD names: the log was rewritten"};
      }
    }
  }
  return report;
}

Result<std::optional<StoredRecord>> ExportLineChecker::add(const std::string& line) {
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
  uint64_t claimed = 0;
  auto record = parse_export_line(line, &claimed);
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
  if (render_export_line(*record) != line) {
    return fail(ChainBreak{named, where() + ": seq " + std::to_string(named) +
                                      ": the line is not the rendering of its record (edited JSON)"});
  }
  return Out{std::move(record).value()};
}

VerifyReport ExportLineChecker::report() const {
  VerifyReport report;
  finish(report, verifier_);
  report.broken = broken_;
  return report;
}

VerifyReport verify_export(std::istream& in, const Progress& progress) {
  ExportLineChecker checker;
  std::string line;
  while (std::getline(in, line)) {
    auto record = checker.add(line);
    if (!record.ok()) break;
    if (progress && record->has_value() && checker.records() % 16384 == 0) {
      progress((*record)->seq(), checker.records());
    }
  }
  return checker.report();
}

std::string render_verify_report(const VerifyReport& r) {
  if (r.broken) {
    // Reasons name the seq themselves ("seq 7: …"); say it once, up front.
    std::string reason = r.broken->reason;
    const std::string own = "seq " + std::to_string(r.broken->seq) + ": ";
    if (const auto at = reason.find(own); at != std::string::npos) reason.erase(at, own.size());
    return "broken at seq " + std::to_string(r.broken->seq) + ": " + reason;
  }
  if (r.records == 0) return "ok: 0 records";
  return "ok: " + std::to_string(r.records) + " records, seq " + std::to_string(r.first_seq) + ".." +
         std::to_string(r.last_seq) + ", head " + to_hex(r.head);
}

}  // namespace koordq::journal
