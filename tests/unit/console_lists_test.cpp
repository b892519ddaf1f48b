// The console's lists for large states (behaviour.md §25.2, §25.3): the quota tree cut from the
// top down with every shown quota's parent shown, searches by name, and the difference between two
// instants computed from their summaries.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "api/visibility_render.hpp"
#include "console/instant_diff.hpp"
#include "console/quota_tree_cut.hpp"
#include "console/state_lists.hpp"
#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

rapidjson::Document parse(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  EXPECT_FALSE(doc.HasParseError()) << text;
  return doc;
}

// org → dept-0, dept-1 → team-00 … team-05 (even teams under dept-0), each team with its queue.
class ConsoleLists : public ::testing::Test {
 protected:
  void SetUp() override {
    d.input(quota("org", "", {{"cpu", "100"}}));
    for (int i = 0; i < 2; ++i) d.input(quota("dept-" + std::to_string(i), "org", {{"cpu", "50"}}));
    for (int i = 0; i < 6; ++i) {
      const std::string team = "team-0" + std::to_string(i);
      d.input(quota(team, "dept-" + std::to_string(i % 2), {{"cpu", "4"}}));
      d.input(queue(team));
    }
  }
  SchedulerDriver d;
};

TEST_F(ConsoleLists, a_cut_tree_shows_whole_levels_from_the_top_and_counts_what_it_leaves_out) {
  const console::QuotaTreeCut cut = console::cut_quota_tree(d.s.quotas(), "", 4);
  EXPECT_THAT(cut.shown, ElementsAre("org", "dept-0", "dept-1", "team-00"));
  EXPECT_EQ(cut.not_shown, 5u);
  EXPECT_EQ(cut.hidden_children.at("dept-0"), 2u) << "team-02 and team-04";
  EXPECT_EQ(cut.hidden_children.at("dept-1"), 3u);
  EXPECT_FALSE(cut.hidden_children.count("org"));
}

TEST_F(ConsoleLists, every_shown_quota_has_its_parent_shown_at_any_limit) {
  for (size_t limit = 1; limit <= 10; ++limit) {
    const console::QuotaTreeCut cut = console::cut_quota_tree(d.s.quotas(), "", limit);
    EXPECT_EQ(cut.shown.size() + cut.not_shown, 9u);
    for (size_t i = 0; i < cut.shown.size(); ++i) {
      const std::string parent = d.s.quotas().parent_of(cut.shown[i]);
      if (!d.s.quotas().known(parent)) continue;
      EXPECT_NE(std::find(cut.shown.begin(), cut.shown.begin() + static_cast<long>(i), parent),
                cut.shown.begin() + static_cast<long>(i))
          << cut.shown[i] << " before its parent " << parent << " at limit " << limit;
    }
  }
}

TEST_F(ConsoleLists, a_quota_found_by_name_comes_with_its_ancestors) {
  const console::QuotaTreeCut cut = console::cut_quota_tree(d.s.quotas(), "team-03", 100);
  EXPECT_THAT(cut.shown, ElementsAre("org", "dept-1", "team-03"));
  EXPECT_EQ(cut.not_shown, 0u);
  EXPECT_TRUE(console::cut_quota_tree(d.s.quotas(), "nothing-like-it", 100).shown.empty());

  auto doc = parse(console::render_quota_tree(d.s, 9, "team-0", 2));
  EXPECT_STREQ(doc["kind"].GetString(), "ElasticQuotaList");
  ASSERT_EQ(doc["items"].Size(), 2u);
  EXPECT_STREQ(doc["items"][0]["metadata"]["name"].GetString(), "org");
  EXPECT_EQ(doc["metadata"]["remainingItemCount"].GetInt(), 7) << "2 departments and 6 teams matched or above a match";
  EXPECT_EQ(doc["hiddenChildren"]["org"].GetInt(), 1) << "dept-1";
  EXPECT_EQ(doc["hiddenChildren"]["dept-0"].GetInt(), 3);
}

TEST_F(ConsoleLists, queues_and_units_are_found_by_a_part_of_their_name) {
  for (int i = 0; i < 30; ++i) d.input(unit("job-" + std::to_string(100 + i), "team-01", "1", 0, i * kSec, "ns-a"));
  auto queues = parse(console::render_queues_matching(d.s, 5, "team-0", 4));
  EXPECT_EQ(queues["items"].Size(), 4u);
  EXPECT_EQ(queues["metadata"]["remainingItemCount"].GetInt(), 2);
  EXPECT_EQ(parse(console::render_queues_matching(d.s, 5, "team-05", 4))["items"].Size(), 1u);
  // A Queue found shows the counts its own answer shows.
  const auto matched = parse(console::render_queues_matching(d.s, 5, "team-01", 4));
  const auto own = parse(*api::render_queue(d.s, 5, "team-01"));
  const auto& found = matched["items"][0];
  for (const char* count : {"activeCount", "backoffCount", "assumedCount"}) {
    EXPECT_EQ(found[count].GetInt64(), own[count].GetInt64()) << count;
  }
  EXPECT_GT(found["activeCount"].GetInt64(), 0) << "a comparison of more than zeros";

  auto units = parse(console::render_units_matching(d.s, 5, "ns-a/job-11", 5));
  ASSERT_EQ(units["items"].Size(), 5u);
  EXPECT_EQ(units["metadata"]["remainingItemCount"].GetInt(), 5) << "job-110 … job-119";
  EXPECT_STREQ(units["items"][0]["name"].GetString(), "job-110");
  EXPECT_STREQ(units["items"][0]["queueName"].GetString(), "team-01");

  api::UnitFilter named;
  named.name_contains = "job-12";
  auto in_queue = parse(*api::render_queue_units(d.s, 5, "team-01", named, {}));
  ASSERT_EQ(in_queue["items"].Size(), 10u);
  EXPECT_STREQ(in_queue["items"][0]["metadata"]["name"].GetString(), "job-120");
  int64_t whole_queue_position = -1;
  const auto whole_queue = parse(*api::render_queue_units(d.s, 5, "team-01", {}, {}));
  for (const auto& item : whole_queue["items"].GetArray()) {
    if (std::string(item["metadata"]["name"].GetString()) == "job-120")
      whole_queue_position = item["positionInQueue"].GetInt();
  }
  EXPECT_GT(whole_queue_position, 0);
  EXPECT_EQ(in_queue["items"][0]["positionInQueue"].GetInt(), whole_queue_position)
      << "positions stay those of the whole queue";
}

TEST_F(ConsoleLists, the_difference_names_admitted_arrived_left_moved_units_and_changed_quotas) {
  d.input(unit("stays", "team-01", "8", 0, 2 * kSec));  // never fits team-01's 4 cpu: keeps waiting
  d.input(unit("goes", "team-02", "1", 0, 3 * kSec, "other"));
  d.input(unit("later", "team-06", "2", 0, 4 * kSec));  // no such queue yet: not waiting
  const console::InstantSummary before = console::summarize_instant(d.s, 10);
  d.input(unit("urgent", "team-01", "8", 50, 5 * kSec));  // a higher priority: ahead of stays
  d.input(unit("goes", "team-02", "1", 0, 3 * kSec, "other"), true);
  d.input(quota("team-06", "dept-0", {{"cpu", "4"}}));
  d.input(queue("team-06"));  // later is mapped and admitted
  const console::InstantSummary after = console::summarize_instant(d.s, 20);

  auto doc = parse(console::render_instant_diff(after, before, 100));
  EXPECT_EQ(doc["from"].GetInt(), 10) << "the earlier revision first, whichever was asked first";
  EXPECT_EQ(doc["to"].GetInt(), 20);
  const auto items = [&](const char* section) {
    std::vector<std::string> out;
    for (const auto& v : doc[section]["items"].GetArray()) out.emplace_back(v.GetString());
    return out;
  };
  EXPECT_THAT(items("admitted"), ElementsAre("default/later"));
  EXPECT_THAT(items("arrived"), ElementsAre("default/urgent"));
  EXPECT_THAT(items("left"), ElementsAre("other/goes"));
  EXPECT_THAT(items("moved"), ElementsAre("default/stays 0→1"));
  EXPECT_THAT(
      items("quotaChanges"),
      UnorderedElementsAre(::testing::HasSubstr("team-06: used (absent)"), ::testing::HasSubstr("team-02: used"),
                           ::testing::HasSubstr("dept-0: used"), ::testing::HasSubstr("org: used")));

  auto cut = parse(console::render_instant_diff(before, after, 0));
  EXPECT_EQ(cut["admitted"]["total"].GetInt(), 1) << "a cut section still counts everything";
  EXPECT_EQ(cut["admitted"]["items"].Size(), 0u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
