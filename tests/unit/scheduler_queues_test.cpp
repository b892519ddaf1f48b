// The Queues koordq keeps for the quotas and their usage annotations (behaviour.md §2.5, §14.3):
// created once, adopted when they exist, patched item by item, deleted with the quota; each write
// decided once while it is in flight or after it landed, again after a failure.
#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

using actors::DecisionKind;
using actors::OutcomeResult;

constexpr char kParent[] = "quota.scheduling.koordinator.sh/parent";
constexpr char kPolicy[] = "koord-queue/queue-policy";
constexpr char kEnable[] = "quota-koord-queue-enable";

std::vector<actors::Decision> queue_writes(const std::vector<actors::Decision>& ds) {
  std::vector<actors::Decision> out;
  for (const auto& d : ds) {
    if (d.kind == DecisionKind::kQueueCreate || d.kind == DecisionKind::kQueuePatch ||
        d.kind == DecisionKind::kQueueDelete) {
      out.push_back(d);
    }
  }
  return out;
}

// The Queue a create decision writes, as the API server stores it.
schema::Queue created(const actors::Decision& d, const std::string& rv = "5") {
  schema::Queue q = std::get<schema::Queue>(*d.queue_write);
  q.metadata.uid = "uid-queue-" + q.metadata.name;
  q.metadata.resource_version = rv;
  return q;
}

void answer(SchedulerDriver& d, const actors::Decision& decision, uint64_t round_seq, uint32_t index,
            OutcomeResult result) {
  actors::Outcome o;
  o.decision_seq = round_seq;
  o.decision_index = index;
  o.write_kind = actors::WriteKind::kQueueWrite;
  o.target = decision.target;
  o.result = result;
  ++d.seq;
  d.s.advance_to(d.time);
  d.s.apply_outcome(o);
}

uint32_t index_of(const std::vector<actors::Decision>& ds, DecisionKind kind) {
  for (uint32_t i = 0; i < ds.size(); ++i) {
    if (ds[i].kind == kind) return i;
  }
  ADD_FAILURE() << "no " << actors::decision_kind_name(kind);
  return 0;
}

struct CreateRow {
  const char* what;
  std::optional<std::string> policy_label;
  std::optional<std::string> parent;
  std::optional<std::string> enable;
  std::string want_policy;
};

TEST(SchedulerAutoQueue, comparing_a_quotas_items_in_place_agrees_with_building_them) {
  const std::vector<std::string> policies = {"", "Priority", "Block", "Intelligent", "Round", "Odd"};
  const std::vector<std::optional<std::string>> values = {std::nullopt, "", "a", "b"};
  std::vector<actors::QuotaInfo> quotas;
  for (const auto& policy : policies) {
    for (const auto& parent : values) {
      for (const auto& enable : values) {
        actors::QuotaInfo q;
        q.queue_policy = policy;
        if (parent) q.object.metadata.labels["quota.scheduling.koordinator.sh/parent"] = *parent;
        q.enable_annotation = enable;
        quotas.push_back(std::move(q));
      }
    }
  }
  int equal = 0;
  for (const auto& a : quotas) {
    for (const auto& b : quotas) {
      const actors::QueueItems items = actors::Scheduler::queue_items_of(b);
      const bool same = actors::Scheduler::queue_items_of(a) == items;
      EXPECT_EQ(actors::Scheduler::has_queue_items(a, items), same);
      equal += same;
    }
  }
  EXPECT_GT(equal, static_cast<int>(quotas.size()));  // "", "Odd" and "Priority" build the same items
}

TEST(SchedulerAutoQueue, every_quota_gets_a_queue_with_the_items_it_carries) {
  const std::vector<CreateRow> rows = {
      {"no label", std::nullopt, std::nullopt, std::nullopt, "Priority"},
      {"Priority", "Priority", std::nullopt, std::nullopt, "Priority"},
      {"Block", "Block", std::nullopt, std::nullopt, "Block"},
      {"Intelligent", "Intelligent", std::nullopt, std::nullopt, "Intelligent"},
      {"Round", "Round", std::nullopt, std::nullopt, "Round"},
      {"FIFO is not carried", "FIFO", std::nullopt, std::nullopt, "Priority"},
      {"empty label", "", std::nullopt, std::nullopt, "Priority"},
      {"lower case", "block", std::nullopt, std::nullopt, "Priority"},
      {"parent and enable copied", "Block", "root-a", "true", "Block"},
      {"empty values copied too", std::nullopt, "", "", "Priority"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.what);
    SchedulerDriver d;
    auto q = quota("team-a", "", {{"cpu", "4"}});
    if (row.policy_label) q.metadata.labels[kPolicy] = *row.policy_label;
    if (row.parent) q.metadata.labels[kParent] = *row.parent;
    if (row.enable) q.metadata.annotations[kEnable] = *row.enable;
    const auto writes = queue_writes(d.input(q));
    ASSERT_EQ(writes.size(), 1u);
    EXPECT_EQ(writes[0].kind, DecisionKind::kQueueCreate);
    EXPECT_EQ(target_name(writes[0]), "team-a");
    const auto& made = std::get<schema::Queue>(*writes[0].queue_write);
    EXPECT_EQ(made.metadata.name, "team-a");
    EXPECT_EQ(made.metadata.namespace_, "koord-queue");
    EXPECT_EQ(made.spec.queue_policy, row.want_policy);
    EXPECT_EQ(made.spec.priority, 1000);
    schema::StringMap labels, annotations;
    if (row.parent) labels[kParent] = *row.parent;
    if (row.enable) annotations[kEnable] = *row.enable;
    EXPECT_EQ(made.metadata.labels, labels);
    EXPECT_EQ(made.metadata.annotations, annotations);
  }
}

TEST(SchedulerAutoQueue, the_queue_goes_to_the_configured_queue_namespace) {
  actors::DecisionConfig config;
  config.queue_namespace = "queues";
  SchedulerDriver d(config);
  const auto writes = queue_writes(d.input(quota("team-a", "", {})));
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(std::get<schema::Queue>(*writes[0].queue_write).metadata.namespace_, "queues");
}

TEST(SchedulerAutoQueue, the_root_quota_and_an_ignored_name_collision_get_no_queue_of_their_own) {
  SchedulerDriver d;
  EXPECT_TRUE(queue_writes(d.input(quota("koordinator-root-quota", "", {}))).empty());
  EXPECT_EQ(queue_writes(d.input(quota("team-a", "", {}, 10))).size(), 1u);
  auto twin = quota("team-a", "", {}, 20);
  twin.metadata.namespace_ = "other";
  twin.metadata.labels[kPolicy] = "Block";  // the younger twin is ignored: no patch either
  EXPECT_TRUE(queue_writes(d.input(twin)).empty());
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());
}

TEST(SchedulerAutoQueue, a_create_is_decided_once_while_in_flight_and_after_it_landed) {
  SchedulerDriver d;
  const auto first = d.input(quota("team-a", "", {}));
  const uint64_t round_seq = d.last_round_seq;
  const auto create = first[index_of(first, DecisionKind::kQueueCreate)];
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());  // in flight
  answer(d, create, round_seq, index_of(first, DecisionKind::kQueueCreate), OutcomeResult::kSuccess);
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());  // landed, not yet watched
  EXPECT_TRUE(queue_writes(d.input(created(create))).empty());
  EXPECT_TRUE(d.s.manages_queue("team-a"));
}

TEST(SchedulerAutoQueue, a_failed_or_unknown_create_is_decided_again) {
  for (const auto result : {OutcomeResult::kError, OutcomeResult::kUnknown}) {
    SchedulerDriver d;
    const auto first = d.input(quota("team-a", "", {}));
    const uint32_t i = index_of(first, DecisionKind::kQueueCreate);
    answer(d, first[i], d.last_round_seq, i, result);
    const auto again = queue_writes(d.tick(d.time + kSec));
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].kind, DecisionKind::kQueueCreate);
  }
}

TEST(SchedulerAutoQueue, an_outcome_for_another_decision_does_not_end_the_in_flight_write) {
  SchedulerDriver d;
  const auto first = d.input(quota("team-a", "", {}));
  const uint32_t i = index_of(first, DecisionKind::kQueueCreate);
  answer(d, first[i], d.last_round_seq, i + 1, OutcomeResult::kError);
  answer(d, first[i], d.last_round_seq - 2, i, OutcomeResult::kError);
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());
}

TEST(SchedulerAutoQueue, a_create_answered_already_exists_adopts_the_queue_that_appeared) {
  SchedulerDriver d;
  const auto first = d.input(quota("team-a", "", {}));
  const uint32_t i = index_of(first, DecisionKind::kQueueCreate);
  const uint64_t round_seq = d.last_round_seq;
  d.input(queue("team-a", "Block"));  // someone else's
  answer(d, first[i], round_seq, i, OutcomeResult::kConflict);
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());
  EXPECT_TRUE(d.s.manages_queue("team-a"));
  EXPECT_EQ(d.s.queues().at("team-a").object.spec.queue_policy, "Block");
}

TEST(SchedulerAutoQueue, an_existing_queue_is_adopted_whichever_appears_first) {
  {
    SchedulerDriver d;
    d.input(queue("team-a", "Block"));
    EXPECT_TRUE(queue_writes(d.input(quota("team-a", "", {}))).empty());
    EXPECT_TRUE(d.s.manages_queue("team-a"));
  }
  {
    SchedulerDriver d;
    d.s.advance_to(d.time);
    d.s.apply_object(quota("team-a", "", {}), false);
    d.s.apply_object(queue("team-a", "Block"), false);
    EXPECT_TRUE(queue_writes(d.round()).empty());
    EXPECT_TRUE(d.s.manages_queue("team-a"));
  }
}

struct PatchRow {
  const char* what;
  std::function<void(schema::ElasticQuota&)> change;
  std::optional<actors::QueuePatch> want;  // std::nullopt: the carried item did not change
};

TEST(SchedulerAutoQueue, a_changed_quota_item_is_patched_alone_and_manual_edits_survive) {
  const std::vector<PatchRow> rows = {
      {"policy", [](auto& q) { q.metadata.labels[kPolicy] = "Block"; }, actors::QueuePatch{"Block", {}, {}}},
      {"policy to an uncarried value, still Priority", [](auto& q) { q.metadata.labels[kPolicy] = "FIFO"; },
       std::nullopt},
      {"policy label removed, still Priority", [](auto& q) { q.metadata.labels.erase(kPolicy); }, std::nullopt},
      {"parent added", [](auto& q) { q.metadata.labels[kParent] = "root-b"; },
       actors::QueuePatch{std::nullopt, {{kParent, "root-b"}}, {}}},
      {"parent removed", [](auto& q) { q.metadata.labels.erase(kParent); },
       actors::QueuePatch{std::nullopt, {{kParent, std::nullopt}}, {}}},
      {"enable changed", [](auto& q) { q.metadata.annotations[kEnable] = "false"; },
       actors::QueuePatch{std::nullopt, {}, {{kEnable, "false"}}}},
      {"enable removed", [](auto& q) { q.metadata.annotations.erase(kEnable); },
       actors::QueuePatch{std::nullopt, {}, {{kEnable, std::nullopt}}}},
      {"two items",
       [](auto& q) {
         q.metadata.labels[kPolicy] = "Round";
         q.metadata.annotations.erase(kEnable);
       },
       actors::QueuePatch{"Round", {}, {{kEnable, std::nullopt}}}},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.what);
    SchedulerDriver d;
    auto q = quota("team-a", "root-a", {});
    q.metadata.labels[kPolicy] = "Priority";
    q.metadata.annotations[kEnable] = "true";
    const auto first = d.input(q);
    const uint32_t i = index_of(first, DecisionKind::kQueueCreate);
    auto made = created(first[i]);
    answer(d, first[i], d.last_round_seq, i, OutcomeResult::kSuccess);
    d.input(made);
    // A manual edit of the Queue is no reason to patch.
    made.metadata.annotations["koord-queue/max-depth"] = "3";
    made.metadata.labels[kParent] = "manual";
    made.metadata.resource_version = "6";
    EXPECT_TRUE(queue_writes(d.input(made)).empty());
    // A quota change that touches none of the three items neither.
    q.spec.max = {{"cpu", "8"}};
    EXPECT_TRUE(queue_writes(d.input(q)).empty());
    row.change(q);
    const auto patches = queue_writes(d.input(q));
    if (!row.want) {
      EXPECT_TRUE(patches.empty());
      continue;
    }
    ASSERT_EQ(patches.size(), 1u);
    EXPECT_EQ(patches[0].kind, DecisionKind::kQueuePatch);
    EXPECT_EQ(std::get<actors::QueuePatch>(*patches[0].queue_write), *row.want);
    EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());  // in flight
  }
}

TEST(SchedulerAutoQueue, a_failed_patch_is_decided_again_and_a_landed_one_is_not) {
  SchedulerDriver d;
  d.input(queue("team-a"));
  auto q = quota("team-a", "", {});
  d.input(q);
  q.metadata.labels[kPolicy] = "Block";
  auto round = d.input(q);
  uint32_t i = index_of(round, DecisionKind::kQueuePatch);
  answer(d, round[i], d.last_round_seq, i, OutcomeResult::kError);
  round = d.tick(d.time + kSec);
  const auto again = queue_writes(round);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(std::get<actors::QueuePatch>(*again[0].queue_write).queue_policy, "Block");
  i = index_of(round, DecisionKind::kQueuePatch);
  answer(d, round[i], d.last_round_seq, i, OutcomeResult::kSuccess);
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());
}

TEST(SchedulerAutoQueue, a_deleted_quota_deletes_its_queue_once) {
  SchedulerDriver d;
  d.input(queue("team-a"));
  const auto q = quota("team-a", "", {});
  d.input(q);
  auto round = d.input(q, true);
  auto deletes = queue_writes(round);
  ASSERT_EQ(deletes.size(), 1u);
  EXPECT_EQ(deletes[0].kind, DecisionKind::kQueueDelete);
  EXPECT_TRUE(std::holds_alternative<actors::QueueDelete>(*deletes[0].queue_write));
  const uint32_t i = index_of(round, DecisionKind::kQueueDelete);
  const uint64_t round_seq = d.last_round_seq;
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());  // in flight
  answer(d, round[i], round_seq, i, OutcomeResult::kError);
  round = d.tick(d.time + kSec);
  ASSERT_EQ(queue_writes(round).size(), 1u);  // retried
  const uint32_t j = index_of(round, DecisionKind::kQueueDelete);
  answer(d, round[j], d.last_round_seq, j, OutcomeResult::kSuccess);
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());  // landed, not yet watched
  d.input(queue("team-a"), true);
  EXPECT_TRUE(d.s.auto_queues().empty());
}

TEST(SchedulerAutoQueue, a_queue_without_a_quota_is_never_deleted_and_a_deleted_one_is_created_again) {
  SchedulerDriver d;
  d.input(queue("orphan"));
  EXPECT_TRUE(queue_writes(d.tick(d.time + kSec)).empty());
  d.input(queue("team-a"));
  d.input(quota("team-a", "", {}));
  const auto writes = queue_writes(d.input(queue("team-a"), true));  // deleted by hand
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].kind, DecisionKind::kQueueCreate);
}

// --- §14.3 usage annotations -----------------------------------------------------------------

std::vector<actors::Decision> usage_writes(const std::vector<actors::Decision>& ds) {
  std::vector<actors::Decision> out;
  for (const auto& d : ds) {
    if (d.kind == DecisionKind::kQueueUsageAnnotations) out.push_back(d);
  }
  return out;
}

actors::UsageAnnotations usage(const std::string& used, const std::string& self, const std::string& children) {
  return {{"alibabacloud.com/queue-used", used},
          {"alibabacloud.com/queue-self-used", self},
          {"alibabacloud.com/queue-children-used", children},
          {"alibabacloud.com/queue-guaranteed-used", used},
          {"alibabacloud.com/queue-self-guaranteed-used", self},
          {"alibabacloud.com/queue-children-guaranteed-used", children}};
}

TEST(SchedulerUsageAnnotations, the_six_annotations_are_compact_json_of_non_zero_internal_integers) {
  SchedulerDriver d;
  d.input(queue("parent"));
  d.input(queue("child"));
  d.input(quota("parent", "", {{"cpu", "8"}, {"memory", "16Gi"}}));
  const auto first = usage_writes(d.input(quota("child", "parent", {{"cpu", "8"}, {"memory", "16Gi"}})));
  ASSERT_EQ(first.size(), 1u);  // the parent's went out with its quota; both `{}`
  EXPECT_EQ(std::get<actors::UsageAnnotations>(*first[0].queue_write), usage("{}", "{}", "{}"));
  d.at(d.time + kSec);
  auto u = unit("job", "child", "2");
  u.spec.resource = {{"cpu", "2"}, {"memory", "2Gi"}};
  u.spec.request = u.spec.resource;
  EXPECT_TRUE(usage_writes(d.input(u)).empty());  // decided on the state before the admission
  const auto after = usage_writes(d.tick(d.time + 10 * kMs));
  ASSERT_EQ(after.size(), 2u);  // one tree, its queues in name order
  EXPECT_EQ(target_name(after[0]), "child");
  EXPECT_EQ(std::get<actors::UsageAnnotations>(*after[0].queue_write),
            usage(R"({"cpu":2000,"memory":2147483648})", R"({"cpu":2000,"memory":2147483648})", "{}"));
  EXPECT_EQ(target_name(after[1]), "parent");
  EXPECT_EQ(std::get<actors::UsageAnnotations>(*after[1].queue_write),
            usage(R"({"cpu":2000,"memory":2147483648})", "{}", R"({"cpu":2000,"memory":2147483648})"));
}

TEST(SchedulerUsageAnnotations, at_most_once_per_second_and_only_when_a_value_changed) {
  SchedulerDriver d;
  d.input(queue("q"));
  d.input(quota("q", "", {{"cpu", "8"}}));                       // `{}` written now
  EXPECT_TRUE(usage_writes(d.tick(d.time + 2 * kSec)).empty());  // nothing changed
  d.at(d.time + kSec);
  d.input(unit("a", "q", "1"));
  const int64_t written_at = d.time + 10 * kMs;
  ASSERT_EQ(usage_writes(d.tick(written_at)).size(), 1u);
  d.at(written_at + 200 * kMs);
  d.input(unit("b", "q", "1", 0, 1));
  EXPECT_TRUE(usage_writes(d.tick(written_at + 300 * kMs)).empty());  // changed, but within the second
  EXPECT_EQ(d.s.next_deadline(), written_at + kSec);
  const auto later = usage_writes(d.tick(written_at + kSec));
  ASSERT_EQ(later.size(), 1u);
  EXPECT_EQ(std::get<actors::UsageAnnotations>(*later[0].queue_write).at("alibabacloud.com/queue-used"),
            R"({"cpu":2000})");
}

TEST(SchedulerUsageAnnotations, values_already_on_the_queue_are_not_written_again) {
  SchedulerDriver d;
  auto q = queue("q");
  for (const auto& [k, v] : usage("{}", "{}", "{}")) q.metadata.annotations[std::string(k)] = v;
  d.input(q);
  EXPECT_TRUE(usage_writes(d.input(quota("q", "", {{"cpu", "8"}}))).empty());
}

TEST(SchedulerUsageAnnotations, a_failed_write_is_retried_after_the_second) {
  SchedulerDriver d;
  d.input(queue("q"));
  const auto round = d.input(quota("q", "", {{"cpu", "8"}}));
  const uint32_t i = index_of(round, DecisionKind::kQueueUsageAnnotations);
  answer(d, round[i], d.last_round_seq, i, OutcomeResult::kError);
  EXPECT_TRUE(usage_writes(d.tick(d.time + 500 * kMs)).empty());
  EXPECT_EQ(usage_writes(d.tick(d.time + 500 * kMs)).size(), 1u);
}

bool publishes(const std::vector<actors::Decision>& ds) {
  return std::any_of(ds.begin(), ds.end(), [](const auto& d) { return d.kind == DecisionKind::kPublishQueueItems; });
}

// A process (or leader) that ended before its Queue writes were answered: the next one compares
// with what the Queue shows, so a write that never landed is made again, and one that did is not.
TEST(SchedulerQueueWrites, writes_of_an_earlier_process_are_compared_with_the_observed_queue_again) {
  for (const bool by_role : {false, true}) {
    SchedulerDriver d;
    d.input(queue("q"));
    const auto first = d.input(quota("q", "", {{"cpu", "8"}}));
    ASSERT_EQ(usage_writes(first).size(), 1u);
    ASSERT_TRUE(d.s.queues().at("q").last_published.has_value());
    d.at(d.time + 3 * kSec);
    // Neither write is answered nor seen on the Queue; the process ends. The next one starts:
    d.s.advance_to(d.time);
    if (by_role) {
      d.s.apply_role_acquired();
    } else {
      d.s.apply_config();
    }
    const auto again = d.round();
    EXPECT_EQ(usage_writes(again).size(), 1u) << (by_role ? "role" : "config");
    EXPECT_TRUE(publishes(again)) << (by_role ? "role" : "config");
  }
  // Writes that landed (the Queue shows them) are not made again.
  SchedulerDriver d;
  d.input(queue("q"));
  d.input(quota("q", "", {{"cpu", "8"}}));
  auto shown = queue("q");
  for (const auto& [k, v] : usage("{}", "{}", "{}")) shown.metadata.annotations[std::string(k)] = v;
  shown.status.queue_item_details = d.s.queues().at("q").last_published;
  d.at(d.time + 3 * kSec);
  d.input(shown);
  d.s.advance_to(d.time);
  d.s.apply_role_acquired();
  const auto again = d.round();
  EXPECT_TRUE(usage_writes(again).empty());
  EXPECT_FALSE(publishes(again));
}

TEST(SchedulerUsageAnnotations, a_queue_koordq_does_not_keep_gets_none) {
  SchedulerDriver d;
  d.input(queue("orphan"));
  EXPECT_TRUE(usage_writes(d.tick(d.time + kSec)).empty());
  EXPECT_FALSE(d.s.manages_queue("orphan"));
}

TEST(SchedulerUsageAnnotations, koordqs_own_annotation_changes_are_no_change_of_the_queue) {
  struct Row {
    const char* what;
    std::function<void(schema::Queue&)> change;
    bool changed;
  };
  const std::vector<Row> rows = {
      {"usage annotation", [](auto& q) { q.metadata.annotations["alibabacloud.com/queue-used"] = "{}"; }, false},
      {"all six",
       [](auto& q) {
         for (const auto& [k, v] : usage("{}", "{}", "{}")) q.metadata.annotations[std::string(k)] = v;
       },
       false},
      {"resourceVersion", [](auto& q) { q.metadata.resource_version = "9"; }, false},
      {"queueItemDetails", [](auto& q) { q.status.queue_item_details = schema::QueueItemDetails{}; }, false},
      {"another annotation", [](auto& q) { q.metadata.annotations["koord-queue/max-depth"] = "2"; }, true},
      {"policy", [](auto& q) { q.spec.queue_policy = "Block"; }, true},
      {"admission checks",
       [](auto& q) {
         q.spec.admission_checks.push_back({"c", std::nullopt});
       },
       true},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.what);
    const auto before = queue("q");
    auto after = before;
    row.change(after);
    EXPECT_EQ(actors::queue_changed(before, after), row.changed);
  }

  // The cursor and the blocks stay where they were.
  SchedulerDriver d;
  d.input(quota("q", "", {{"cpu", "1"}}));
  auto q = queue("q", "Block");
  d.input(q);
  d.input(unit("big", "q", "2"));
  ASSERT_EQ(d.s.queues().at("q").blocked.size(), 1u);
  for (const auto& [k, v] : usage("{}", "{}", "{}")) q.metadata.annotations[std::string(k)] = v;
  q.metadata.resource_version = "2";
  d.input(q);
  EXPECT_EQ(d.s.queues().at("q").blocked.size(), 1u);
  EXPECT_EQ(d.s.queues().at("q").object.metadata.annotations.size(), 6u);
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
