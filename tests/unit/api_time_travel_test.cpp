// Time travel for the live APIs (behaviour.md §18): the state at a revision or a time equals the
// fold of the journal up to it; errors 400 / 410 / 429 with the spec's messages; a repeated
// revision is served from the cache; the latest applied revision from the live state.
#include <future>

#include <gtest/gtest.h>

#include "actors/wire/record_apply.hpp"
#include "actors/wire/state_restore.hpp"
#include "api/time_travel.hpp"
#include "base/rfc3339.hpp"
#include "journal/journal.hpp"
#include "journal/record_clock.hpp"
#include "journal/watch_record.hpp"
#include "tests/support/scheduler_fixture.hpp"
#include "tests/support/temp_dir.hpp"
#include "tests/support/test_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

class TimeTravelTest : public ::testing::Test {
 protected:
  static constexpr int64_t kT0 = 1'776'000'000 * kSec;

  void SetUp() override {
    journal_ = open_test_journal(dir_.path(), clock_);
    // Five records, one second apart: a quota, a queue, three units.
    append(quota("team-a", "", {{"cpu", "4"}}), kT0);
    append(queue("team-a"), kT0 + kSec);
    for (int i = 0; i < 3; ++i) append(unit("job" + std::to_string(i), "team-a", "1"), kT0 + (2 + i) * kSec);
  }

  void append(const schema::WatchedObject& object, int64_t time) {
    schema::WatchEvent event;
    event.type = schema::WatchEventType::kAdded;
    event.object = object;
    auto body = journal::make_watch_body(event, schema::RawObjectMode::kOff);
    body->set_explicit_time(time);
    std::promise<void> done;
    journal_->writer().append(std::move(body), [&](const Result<journal::AppendedRecord>& r) {
      EXPECT_TRUE(r.ok());
      done.set_value();
    });
    done.get_future().wait();
    auto record = journal_->reader().get(journal_->reader().last_seq());
    ASSERT_TRUE(actors::apply_record(live_, **record).ok());
    live_seq_ = journal_->reader().last_seq();
  }

  api::TimeTravel make(size_t max_inflight = 4, size_t cache_bytes = 64u << 20) {
    return api::TimeTravel(
        {max_inflight, cache_bytes, {}}, journal_->reader(),
        [this](const api::StateRead& read) { read(live_, live_seq_); },
        [this](api::TimeTravelResult r, std::optional<double>) { results_.push_back(r); });
  }

  // The number of units the state at `at` holds, or the error.
  std::variant<size_t, api::ApiError> units_at(api::TimeTravel& tt, const api::PointInTime& at,
                                               uint64_t* revision = nullptr) {
    size_t units = 0;
    auto error = tt.read(at, [&](const actors::Scheduler& s, uint64_t rev) {
      units = s.units().size();
      if (revision) *revision = rev;
    });
    if (error) return *error;
    return units;
  }

  static api::PointInTime revision(uint64_t n) {
    api::PointInTime p;
    p.kind = api::PointInTime::Kind::kRevision;
    p.revision = n;
    return p;
  }
  static api::PointInTime as_of(int64_t t, std::string text) {
    api::PointInTime p;
    p.kind = api::PointInTime::Kind::kTime;
    p.time = t;
    p.text = std::move(text);
    return p;
  }

  TempDir dir_;
  int64_t now_ = kT0;
  journal::RecordClock clock_{[this] { return now_; }, [this] { return now_; }};
  std::unique_ptr<journal::Journal> journal_;
  actors::Scheduler live_;
  uint64_t live_seq_ = 0;
  std::vector<api::TimeTravelResult> results_;
};

TEST_F(TimeTravelTest, every_revision_equals_the_fold_up_to_it) {
  auto tt = make();
  for (uint64_t seq = 1; seq <= 5; ++seq) {
    auto units = units_at(tt, revision(seq));
    ASSERT_TRUE(std::holds_alternative<size_t>(units)) << std::get<api::ApiError>(units).message;
    EXPECT_EQ(std::get<size_t>(units), seq >= 3 ? seq - 2 : 0u) << "revision " << seq;
  }
  // 1..4 reconstructed, 5 is the live state.
  EXPECT_EQ(results_, std::vector<api::TimeTravelResult>({api::TimeTravelResult::kMiss, api::TimeTravelResult::kMiss,
                                                          api::TimeTravelResult::kMiss, api::TimeTravelResult::kMiss,
                                                          api::TimeTravelResult::kHit}));
  results_.clear();
  EXPECT_EQ(std::get<size_t>(units_at(tt, revision(3))), 1u);
  EXPECT_EQ(results_, std::vector<api::TimeTravelResult>({api::TimeTravelResult::kHit})) << "cached";
  EXPECT_EQ(tt.cached_states(), 4u);
}

// The cache holds what fits in its bytes and lets the least recently used states go first.
TEST_F(TimeTravelTest, the_cache_evicts_the_least_recently_used_states_to_stay_within_its_bytes) {
  std::vector<size_t> sizes(5);
  for (uint64_t seq = 1; seq <= 4; ++seq) {
    auto restored = actors::restore_state(journal_->reader(), seq, {});
    ASSERT_TRUE(restored.ok()) << restored.message();
    sizes[seq] = api::TimeTravel::estimated_size(restored->scheduler);
  }
  ASSERT_LE(sizes[3], sizes[4]);
  auto tt = make(4, sizes[3] + sizes[4]);
  for (uint64_t seq = 1; seq <= 4; ++seq) ASSERT_TRUE(std::holds_alternative<size_t>(units_at(tt, revision(seq))));
  EXPECT_EQ(tt.cached_states(), 2u);
  EXPECT_EQ(tt.cached_bytes(), sizes[3] + sizes[4]);
  results_.clear();
  EXPECT_EQ(std::get<size_t>(units_at(tt, revision(3))), 1u);
  EXPECT_EQ(std::get<size_t>(units_at(tt, revision(1))), 0u);
  EXPECT_EQ(results_, std::vector<api::TimeTravelResult>({api::TimeTravelResult::kHit, api::TimeTravelResult::kMiss}))
      << "3 was kept, 1 was evicted";
  // 1 came back in place of 4, the least recently used; 3 stays.
  results_.clear();
  EXPECT_EQ(std::get<size_t>(units_at(tt, revision(3))), 1u);
  EXPECT_EQ(std::get<size_t>(units_at(tt, revision(4))), 2u);
  EXPECT_EQ(results_, std::vector<api::TimeTravelResult>({api::TimeTravelResult::kHit, api::TimeTravelResult::kMiss}));
  EXPECT_LE(tt.cached_bytes(), sizes[3] + sizes[4]);
}

TEST_F(TimeTravelTest, as_of_answers_from_the_last_record_at_or_before_the_time) {
  auto tt = make();
  uint64_t rev = 0;
  EXPECT_EQ(std::get<size_t>(units_at(tt, as_of(kT0 + 3 * kSec + 500 * kMs, "t"), &rev)), 2u);
  EXPECT_EQ(rev, 4u);
  EXPECT_EQ(std::get<size_t>(units_at(tt, as_of(kT0 + 100 * kSec, "later"), &rev)), 3u);
  EXPECT_EQ(rev, 5u);
  auto before = units_at(tt, as_of(kT0 - kSec, "2026-04-12T13:19:59Z"));
  const auto& error = std::get<api::ApiError>(before);
  EXPECT_EQ(error.code, 410);
  EXPECT_EQ(error.reason, "Expired");
  EXPECT_EQ(error.message, "time 2026-04-12T13:19:59Z is older than the oldest retained revision 1 (" +
                               base::format_rfc3339_millis(kT0) + ")");
}

TEST_F(TimeTravelTest, a_revision_past_the_latest_is_a_400) {
  auto tt = make();
  const auto error = std::get<api::ApiError>(units_at(tt, revision(6)));
  EXPECT_EQ(error.code, 400);
  EXPECT_EQ(error.message, "revision 6 is newer than the latest revision 5");
  EXPECT_EQ(results_.back(), api::TimeTravelResult::kInvalid);
}

TEST_F(TimeTravelTest, reconstructions_beyond_the_cap_are_refused_with_429) {
  auto tt = make(0);
  const auto error = std::get<api::ApiError>(units_at(tt, revision(2)));
  EXPECT_EQ(error.code, 429);
  EXPECT_EQ(error.reason, "TooManyRequests");
  EXPECT_EQ(error.message, "too many time-travel queries in flight (limit 0)");
  EXPECT_TRUE(error.retry_after);
  // The live revision needs no reconstruction.
  EXPECT_EQ(std::get<size_t>(units_at(tt, revision(5))), 3u);
  // Requests without a point in time are never limited.
  EXPECT_EQ(std::get<size_t>(units_at(tt, {})), 3u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
