// The journal stream (behaviour.md §17.5): parameters with their exact messages, the filters on
// kind, namespace and queue (a record is never split), resuming by seq, and the lag cut-off.
#include <future>

#include <gtest/gtest.h>

#include "actors/wire/decision_wire.hpp"
#include "actors/wire/input_bodies.hpp"
#include "api/journal_stream.hpp"
#include "journal/export_line.hpp"
#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "journal/watch_record.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

class CollectingWriter : public api::StreamWriter {
 public:
  bool write(std::string_view chunk) override {
    text += chunk;
    return true;
  }
  bool done() override { return false; }
  std::vector<std::string> lines() const {
    std::vector<std::string> out;
    size_t start = 0;
    for (size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1) {
      out.push_back(text.substr(start, nl - start));
    }
    return out;
  }
  std::string text;
};

class JournalStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    journal_ = open_test_journal(dir_.path(), clock_, "00000000-0000-4000-8000-000000000002");
    watch(quota("team-a", "", {{"cpu", "4"}}));         // 1
    watch(queue("team-a"));                             // 2
    watch(unit("job1", "team-a", "1"));                 // 3
    watch(unit("job2", "team-b", "1", 0, 0, "other"));  // 4
    append(actors::make_tick_body());                   // 5
    actors::Decision d;
    d.target = actors::UnitRef{"default", "job1", "uid-default-job1", "team-a", "team-a"};
    d.kind = actors::DecisionKind::kAdmit;
    d.reason = "admitted";
    append(actors::make_round_body(5, {d}));  // 6
  }

  void watch(const schema::WatchedObject& o) {
    schema::WatchEvent event;
    event.type = schema::WatchEventType::kAdded;
    event.object = o;
    append(journal::make_watch_body(event, schema::RawObjectMode::kOff));
  }
  void append(std::unique_ptr<journal::RecordBody> body) {
    std::promise<void> done;
    journal_->writer().append(std::move(body), [&](const Result<journal::AppendedRecord>&) { done.set_value(); });
    done.get_future().wait();
  }

  api::JournalStreamSource source(uint64_t max_lag = 100000) {
    api::JournalStreamSource s;
    s.reader = &journal_->reader();
    s.durable_seq = [this] { return journal_->writer().durable_head().seq; };
    s.wait_durable = [this](uint64_t seq, int64_t t) { return journal_->writer().wait_durable(seq, t); };
    s.max_lag = max_lag;
    return s;
  }

  std::vector<uint64_t> seqs(const std::string& query, uint64_t max_lag = 100000) {
    api::StreamRequest request;
    auto error = api::parse_stream_request(api::parse_target("/x?" + query), journal_->reader().first_seq(),
                                           journal_->writer().durable_head().seq, request);
    EXPECT_FALSE(error) << error->message;
    CollectingWriter out;
    api::write_journal_stream(source(max_lag), request, out);
    std::vector<uint64_t> got;
    for (const std::string& line : out.lines()) {
      last_line = line;
      const size_t at = line.find("\"seq\":");
      if (at != std::string::npos) got.push_back(std::stoull(line.substr(at + 6)));
    }
    return got;
  }

  std::string error_of(const std::string& query) {
    api::StreamRequest request;
    auto error = api::parse_stream_request(api::parse_target("/x?" + query), 1, 6, request);
    return error ? std::to_string(error->code) + " " + error->message : "";
  }

  TempDir dir_;
  int64_t now_ = 1000 * kSec;
  journal::RecordClock clock_{[this] { return now_; }, [this] { return now_; }};
  std::unique_ptr<journal::Journal> journal_;
  std::string last_line;
};

TEST_F(JournalStreamTest, lines_are_the_export_lines_in_seq_order) {
  api::StreamRequest request;
  ASSERT_FALSE(api::parse_stream_request(api::parse_target("/x"), 1, 6, request));
  CollectingWriter out;
  api::write_journal_stream(source(), request, out);
  const auto lines = out.lines();
  ASSERT_EQ(lines.size(), 6u);
  for (uint64_t seq = 1; seq <= 6; ++seq) {
    auto record = journal_->reader().get(seq);
    EXPECT_EQ(lines[seq - 1], journal::render_export_line(**record));
  }
}

TEST_F(JournalStreamTest, from_is_exclusive_so_a_reader_resumes_without_gap_or_repeat) {
  EXPECT_EQ(seqs("from=4"), (std::vector<uint64_t>{5, 6}));
  EXPECT_EQ(seqs("from=6"), (std::vector<uint64_t>{}));
  EXPECT_EQ(seqs("from=0"), (std::vector<uint64_t>{1, 2, 3, 4, 5, 6}));
}

TEST_F(JournalStreamTest, filters_keep_whole_records_that_concern_the_object) {
  EXPECT_EQ(seqs("kind=watch,round"), (std::vector<uint64_t>{1, 2, 3, 4, 6}));
  EXPECT_EQ(seqs("kind=tick"), (std::vector<uint64_t>{5}));
  EXPECT_EQ(seqs("namespace=other"), (std::vector<uint64_t>{4}));
  // The quota and the units of the quota name are in; the tick is not.
  EXPECT_EQ(seqs("namespace=default"), (std::vector<uint64_t>{1, 3, 6}));
  EXPECT_EQ(seqs("queue=team-a"), (std::vector<uint64_t>{1, 2, 3, 6}));
  EXPECT_EQ(seqs("queue=team-b"), (std::vector<uint64_t>{4}));
  EXPECT_EQ(seqs("queue=team-a&kind=round"), (std::vector<uint64_t>{6}));
}

TEST_F(JournalStreamTest, a_reader_too_far_behind_is_told_where_to_resume) {
  EXPECT_EQ(seqs("from=1", 2), (std::vector<uint64_t>{}));
  EXPECT_EQ(last_line, "{\"error\":\"too slow\",\"resumeFrom\":1}");
}

TEST_F(JournalStreamTest, bad_parameters_get_the_spec_messages) {
  EXPECT_EQ(error_of("from=x"), "400 invalid value \"x\" for parameter from: must be an integer >= 0");
  EXPECT_EQ(error_of("from=7"), "400 from 7 is newer than the latest revision 6");
  EXPECT_EQ(error_of("follow=yes"), "400 invalid value \"yes\" for parameter follow: must be true or false");
  EXPECT_EQ(error_of("kind=watch,nope"),
            "400 invalid value \"watch,nope\" for parameter kind: unknown record kind \"nope\"");
  EXPECT_EQ(error_of("namespace=a.b"),
            "400 invalid value \"a.b\" for parameter namespace: must be a valid namespace name");
  EXPECT_EQ(error_of("queue=A"), "400 invalid value \"A\" for parameter queue: must be a valid object name");
  api::StreamRequest request;
  auto expired = api::parse_stream_request(api::parse_target("/x?from=3"), 10, 20, request);
  ASSERT_TRUE(expired);
  EXPECT_EQ(expired->code, 410);
  EXPECT_EQ(expired->message, "from 3 is older than the oldest retained revision 10");
  EXPECT_FALSE(api::parse_stream_request(api::parse_target("/x?from=9"), 10, 20, request));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
