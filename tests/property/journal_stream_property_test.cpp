// Resuming the journal stream (behaviour.md §17.5): a reader whose connection is cut at random
// byte offsets, while records are still being appended, drops the torn last line and resumes with
// `from=<the last seq it received>`. What it receives over all its connections is every record the
// filter keeps exactly once, in seq order, each line the export line of the stored record.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "api/journal_stream.hpp"
#include "journal/export_line.hpp"
#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "tests/property/recorded_journal.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/scenario_journal.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using journal::RecordKind;

uint64_t seq_of(const std::string& line) {
  const std::string prefix = "{\"seq\":";
  if (!line.starts_with(prefix)) RC_FAIL("a line that is no record: " + line.substr(0, 200));
  return std::stoull(line.substr(prefix.size()));
}

// A connection that the reader drops after `budget` bytes (mid-line, usually), once its last
// complete line is the record `last_seq`, or when `abandoned` is set. Keeps the complete lines: a
// torn last line is dropped.
class CutConnection : public api::StreamWriter {
 public:
  CutConnection(size_t budget, uint64_t last_seq, const std::atomic<bool>& abandoned)
      : budget_(budget), last_seq_(last_seq), abandoned_(abandoned) {}

  bool write(std::string_view chunk) override {
    if (cut_) return false;
    cut_ = chunk.size() > budget_;
    const std::string_view kept = chunk.substr(0, std::min(chunk.size(), budget_));
    budget_ -= kept.size();
    partial_ += kept;
    for (size_t nl; (nl = partial_.find('\n')) != std::string::npos; partial_.erase(0, nl + 1)) {
      lines.push_back(partial_.substr(0, nl));
    }
    return !cut_;
  }
  bool done() override { return cut_ || abandoned_ || (!lines.empty() && seq_of(lines.back()) == last_seq_); }
  bool cut() const { return cut_; }

  std::vector<std::string> lines;

 private:
  size_t budget_;
  const uint64_t last_seq_;
  const std::atomic<bool>& abandoned_;
  bool cut_ = false;
  std::string partial_;
};

rc::Gen<size_t> cut_budget() {
  return rc::gen::weightedOneOf<size_t>({
      {3, rc::gen::inRange<size_t>(0, 4096)},        // inside the first lines
      {3, rc::gen::inRange<size_t>(0, 200 * 1024)},  // across chunks
      {1, rc::gen::just(SIZE_MAX)},                  // never cut
  });
}

RC_GTEST_PROP(JournalStreamProperty, a_reader_cut_anywhere_that_resumes_from_its_last_seq_gets_every_record_once, ()) {
  // Journals of up to a few hundred records: length adds nothing to where a cut can fall.
  const auto scenario = *rc::gen::scale(0.4, testgen::scenario());
  const auto records = ScenarioJournal::record(scenario);
  const uint64_t total = records.size();
  const bool follow = *rc::gen::arbitrary<bool>();
  // Every batch ends with its round, so a filter that keeps rounds keeps the last record.
  std::optional<std::set<RecordKind>> kinds;
  if (*rc::gen::arbitrary<bool>()) {
    kinds = *rc::gen::container<std::set<RecordKind>>(
        rc::gen::element(RecordKind::kWatch, RecordKind::kTick, RecordKind::kOutcome, RecordKind::kRole));
    kinds->insert(RecordKind::kRound);
  }
  const uint64_t before_reading = *rc::gen::inRange<uint64_t>(0, total + 1);
  const auto batches = *rc::gen::container<std::vector<uint64_t>>(rc::gen::inRange<uint64_t>(1, 40));
  const auto budgets = *rc::gen::container<std::vector<size_t>>(cut_budget());
  RC_TAG(follow ? "follow" : "no follow");
  RC_TAG(kinds ? "kind filter" : "no filter");

  TempDir dir;
  int64_t now = ScenarioJournal::kStart;
  journal::RecordClock clock{[&] { return now; }, [&] { return now; }};
  auto journal = open_test_journal(dir.path(), clock);
  const std::span<const journal::StoredRecord> all(records);
  if (auto r = append_copies(*journal, all.first(before_reading)); !r.ok()) RC_FAIL(r.message());

  // The rest is appended in batches while the reader reads.
  std::atomic<bool> append_failed{false};
  std::string append_error;  // read once the appender has ended
  std::jthread appender([&] {
    uint64_t next = before_reading;
    for (size_t i = 0; next < total; ++i) {
      const uint64_t n = std::min<uint64_t>(total - next, batches.empty() ? 40 : batches[i % batches.size()]);
      if (auto r = append_copies(*journal, all.subspan(next, n)); !r.ok()) {
        append_error = r.message();
        append_failed = true;
        return;
      }
      next += n;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  });

  api::JournalStreamSource source;
  source.reader = &journal->reader();
  source.durable_seq = [&] { return journal->writer().durable_head().seq; };
  source.wait_durable = [&](uint64_t seq, int64_t timeout) { return journal->writer().wait_durable(seq, timeout); };

  std::vector<std::string> lines;
  uint64_t last_received = 0;
  size_t connections = 0;
  size_t cuts = 0;
  while (last_received < total && !append_failed) {
    const size_t budget = connections < budgets.size() ? budgets[connections] : SIZE_MAX;
    ++connections;
    const std::string query = "from=" + std::to_string(last_received) + "&follow=" + (follow ? "true" : "false");
    api::StreamRequest request;
    const auto error =
        api::parse_stream_request(api::parse_target("/apis/journal/v1/records?" + query), journal->reader().first_seq(),
                                  journal->writer().durable_head().seq, request);
    if (error) RC_FAIL(query + ": " + std::to_string(error->code) + " " + error->message);
    request.filter.kinds = kinds;
    CutConnection connection(budget, total, append_failed);
    api::write_journal_stream(source, request, connection);
    cuts += connection.cut() ? 1 : 0;
    for (auto& line : connection.lines) {
      last_received = seq_of(line);
      lines.push_back(std::move(line));
    }
    // Without follow a connection ends at the record that was the newest when it was opened.
    if (!connection.cut() && last_received < total) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  appender.join();
  if (append_failed) RC_FAIL(append_error);
  RC_TAG(cuts == 0 ? "never cut" : cuts < 5 ? "cut 1-4 times" : "cut 5+ times");

  std::vector<uint64_t> expected;
  for (const auto& record : records) {
    if (!kinds || kinds->count(record.kind())) expected.push_back(record.seq());
  }
  std::vector<uint64_t> received;
  for (const auto& line : lines) received.push_back(seq_of(line));
  RC_ASSERT(received == expected);
  for (size_t i = 0; i < lines.size(); ++i) {
    RC_ASSERT(lines[i] == journal::render_export_line(records[received[i] - 1]));
  }
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
