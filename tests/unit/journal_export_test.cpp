#include <future>
#include <sstream>

#include <gtest/gtest.h>
#include <simdjson.h>

#include "journal/audit_line.hpp"
#include "journal/export_line.hpp"
#include "journal/export_records.hpp"
#include "journal/journal.hpp"
#include "journal/journal_stat.hpp"
#include "journal/verify.hpp"
#include "tests/support/journal_records.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

class JournalExport : public ::testing::Test {
 protected:
  void SetUp() override {
    JournalOptions o;
    o.dir = dir_.path();
    o.new_uuid = "00000000-0000-4000-8000-00000000000e";
    journal_ = std::move(Journal::open(o)).value();
    for (int i = 0; i < 6; ++i) {
      std::promise<void> done;
      auto body = i % 2 ? testing::tick_body() : testing::relist_body("rv-\"" + std::to_string(i) + "\"");
      body->set_explicit_time(1776672000LL * 1'000'000'000 + i * 1'000'000);
      journal_->writer().append(std::move(body), [&](const Result<AppendedRecord>& r) {
        EXPECT_TRUE(r.ok());
        done.set_value();
      });
      done.get_future().wait();
    }
  }

  std::vector<std::string> export_lines(ExportFormat format, ExportRange range = {}) {
    std::ostringstream out;
    auto n = export_records(journal_->reader(), format, range, out);
    EXPECT_TRUE(n.ok());
    std::vector<std::string> lines;
    std::istringstream in(out.str());
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  static VerifyReport verify(const std::vector<std::string>& lines) {
    std::string joined;
    for (const auto& l : lines) joined += l + "\n";
    std::istringstream in(joined);
    return verify_export(in);
  }

  testing::TempDir dir_;
  std::unique_ptr<Journal> journal_;
};

TEST_F(JournalExport, every_line_is_json_with_the_record_and_its_canonical_bytes) {
  const auto lines = export_lines(ExportFormat::kNdjson);
  ASSERT_EQ(lines.size(), 7u) << "6 records and the trailer";
  EXPECT_TRUE(lines.back().starts_with("{\"trailer\":{\"journal\":\"00000000-0000-4000-8000-00000000000e\","))
      << lines.back();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(lines[0]).get(doc), simdjson::SUCCESS);
  EXPECT_EQ(uint64_t(doc["seq"]), 1u);
  EXPECT_EQ(std::string_view(doc["kind"]), "relist");
  EXPECT_EQ(std::string_view(doc["time"]), "2026-04-20T08:00:00.000Z");
  EXPECT_EQ(std::string_view(doc["body"]["relist"]["resourceVersion"]), "rv-\"0\"");
  EXPECT_EQ(lines[0].rfind("{\"seq\":1,", 0), 0u);
}

TEST_F(JournalExport, an_untouched_export_verifies_with_the_journal_head) {
  const auto report = verify(export_lines(ExportFormat::kNdjson));
  ASSERT_FALSE(report.broken.has_value()) << report.broken->reason;
  EXPECT_EQ(report.records, 6u);
  const auto direct = verify_journal(journal_->reader(), dir_ / "HEAD");
  ASSERT_TRUE(direct.ok());
  EXPECT_FALSE(direct->broken.has_value());
  EXPECT_EQ(direct->head, report.head);
  EXPECT_EQ(render_verify_report(report), "ok: 6 records, seq 1..6, head " + to_hex(report.head));
}

TEST_F(JournalExport, a_single_changed_character_anywhere_in_any_line_is_caught) {
  const auto lines = export_lines(ExportFormat::kNdjson);
  for (size_t l = 0; l < lines.size(); ++l) {
    for (size_t i = 0; i < lines[l].size(); ++i) {
      auto tampered = lines;
      char& c = tampered[l][i];
      c = c == 'A' ? 'B' : (c == '0' ? '1' : (c == '"' ? '\'' : 'A'));
      if (tampered[l] == lines[l]) continue;
      const auto report = verify(tampered);
      ASSERT_TRUE(report.broken.has_value()) << "line " << l << " char " << i << ": " << tampered[l];
      EXPECT_LE(report.broken->seq, l + 1);
    }
  }
}

TEST_F(JournalExport, a_dropped_line_is_a_gap_naming_the_missing_seq) {
  auto lines = export_lines(ExportFormat::kNdjson);
  lines.erase(lines.begin() + 3);
  const auto report = verify(lines);
  ASSERT_TRUE(report.broken.has_value());
  EXPECT_EQ(report.broken->seq, 4u);
}

TEST_F(JournalExport, ranges_are_inclusive_at_both_ends) {
  const auto lines = export_lines(ExportFormat::kNdjson, ExportRange{2, 4});
  ASSERT_EQ(lines.size(), 4u) << "3 records and the trailer";
  EXPECT_EQ(lines.front().rfind("{\"seq\":2,", 0), 0u);
  EXPECT_NE(lines.back().find("\"firstSeq\":2,"), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find("\"lastSeq\":4,"), std::string::npos) << lines.back();
  EXPECT_FALSE(verify(lines).broken.has_value());
}

TEST_F(JournalExport, audit_lines_are_audit_events_carrying_seq_and_hash) {
  const auto lines = export_lines(ExportFormat::kAudit);
  ASSERT_EQ(lines.size(), 7u) << "6 records and the trailer";
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(lines[2]).get(doc), simdjson::SUCCESS) << lines[2];
  EXPECT_EQ(std::string_view(doc["apiVersion"]), "audit.k8s.io/v1");
  EXPECT_EQ(std::string_view(doc["kind"]), "Event");
  EXPECT_EQ(std::string_view(doc["annotations"]["koordq.io/seq"]), "3");
  EXPECT_EQ(std::string_view(doc["auditID"]), audit_id(journal_->uuid(), 3));
  EXPECT_NE(audit_id(journal_->uuid(), 3), audit_id(journal_->uuid(), 4));
  EXPECT_EQ(std::string_view(doc["annotations"]["koordq.io/hash"]).size(), 64u);
}

TEST_F(JournalExport, an_audit_export_ends_with_the_trailer_of_the_ndjson_export_in_an_event) {
  const auto audit = export_lines(ExportFormat::kAudit);
  const auto ndjson = export_lines(ExportFormat::kNdjson);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(audit.back()).get(doc), simdjson::SUCCESS) << audit.back();
  EXPECT_EQ(std::string_view(doc["apiVersion"]), "audit.k8s.io/v1");
  EXPECT_EQ(std::string_view(doc["verb"]), "export-trailer");
  const std::string trailer{std::string_view(doc["annotations"]["koordq.io/trailer"])};
  EXPECT_EQ("{\"trailer\":" + trailer + "}", ndjson.back()) << "the same trailer object, unsigned";
  EXPECT_NE(trailer.find("\"lastSeq\":6,"), std::string::npos) << trailer;
  EXPECT_EQ(doc["annotations"]["koordq.io/signature"].error(), simdjson::NO_SUCH_FIELD);
}

TEST_F(JournalExport, verify_export_names_an_audit_export_as_such) {
  const auto report = verify(export_lines(ExportFormat::kAudit));
  ASSERT_TRUE(report.broken.has_value());
  EXPECT_NE(report.broken->reason.find("line 1 is an audit.k8s.io/v1 Event: journal verify --export checks an NDJSON "
                                       "export"),
            std::string::npos)
      << report.broken->reason;
}

TEST_F(JournalExport, stat_counts_records_by_kind) {
  auto s = journal_stat(journal_->reader());
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->records, 6u);
  const std::string text = render_stat_text(*s);
  EXPECT_NE(text.find("kinds:      relist=3,tick=3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("time:       2026-04-20T08:00:00.000Z..2026-04-20T08:00:00.005Z\n"), std::string::npos);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(render_stat_json(*s)).get(doc), simdjson::SUCCESS);
  EXPECT_EQ(uint64_t(doc["kinds"]["tick"]), 3u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
