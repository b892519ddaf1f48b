// A relist epoch's changes read against the decision state in place (controller/relist_changes.hpp): what
// the journal holds of each kind, and events that own their objects once the state is gone.
#include "controller/relist_changes.hpp"

#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "tests/support/scheduler_fixture.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

schema::DecodedObject listed(schema::WatchedObject object) {
  schema::DecodedObject d;
  d.object = std::move(object);
  return d;
}

std::vector<std::string> names(const std::vector<kube::RelistEvent>& events) {
  std::vector<std::string> out;
  for (const auto& e : events) {
    out.push_back(std::string(schema::watch_event_type_name(e.event.type)) + " " +
                  schema::meta_of(*e.event.object).name + (e.synthesized ? " synthesized" : ""));
  }
  return out;
}

TEST(RelistChanges, each_kind_is_diffed_against_its_own_journaled_objects) {
  auto state = std::make_unique<actors::Scheduler>();
  state->apply_object(quota("team-a", "", {{"cpu", "4"}}), false);
  state->apply_object(queue("team-a"), false);
  state->apply_object(unit("kept", "team-a", "1"), false);
  state->apply_object(unit("gone", "team-a", "1"), false);

  std::vector<schema::DecodedObject> units;
  units.push_back(listed(unit("kept", "team-a", "1")));
  units.push_back(listed(unit("new", "team-a", "1")));
  const auto unit_changes = controller::relist_changes(*state, schema::ObjectKind::kQueueUnit, std::move(units),
                                                       schema::RawObjectMode::kFull);
  const auto queue_changes =
      controller::relist_changes(*state, schema::ObjectKind::kQueue, {}, schema::RawObjectMode::kOff);
  std::vector<schema::DecodedObject> quotas;
  quotas.push_back(listed(quota("team-a", "", {{"cpu", "4"}})));
  const auto quota_changes = controller::relist_changes(*state, schema::ObjectKind::kElasticQuota, std::move(quotas),
                                                        schema::RawObjectMode::kOff);
  state.reset();  // the events own what they carry

  EXPECT_EQ(names(unit_changes), (std::vector<std::string>{"DELETED gone synthesized", "ADDED new"}));
  EXPECT_NE(unit_changes[0].event.raw_json.find("\"name\":\"gone\""), std::string::npos);
  EXPECT_EQ(std::get<schema::QueueUnit>(*unit_changes[0].event.object)
                .metadata.labels.at("quota.scheduling.koordinator.sh/name"),
            "team-a");
  EXPECT_EQ(names(queue_changes), (std::vector<std::string>{"DELETED team-a synthesized"}));
  EXPECT_EQ(queue_changes[0].event.raw_json, "");
  EXPECT_TRUE(quota_changes.empty());
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
