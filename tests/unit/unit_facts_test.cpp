// behaviour.md §5.1: the effective phase of a status.phase value; §5.2: the charge of a unit and
// the predicates, of its own status or of one given in its place.
#include "actors/core/unit_facts.hpp"

#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace koordq::actors {
namespace KOORDQ_TEST_LOCAL {

TEST(UnitFacts, every_phase_name_reads_back_as_its_phase) {
  for (Phase p :
       {Phase::kEnqueued, Phase::kReserved, Phase::kDequeued, Phase::kRunning, Phase::kSucceed, Phase::kFailed,
        Phase::kTimeoutBackoff, Phase::kSchedReady, Phase::kSchedSucceed, Phase::kSchedFailed}) {
    EXPECT_EQ(effective_phase(phase_name(p)), p) << phase_name(p);
    EXPECT_TRUE(is_known_phase(phase_name(p))) << phase_name(p);
  }
  EXPECT_EQ(effective_phase(""), Phase::kEnqueued);
  EXPECT_TRUE(is_known_phase(""));
}

TEST(UnitFacts, any_other_phase_value_is_sched_failed) {
  // Same length or first letter as a known name, other case, padding: none is that phase.
  for (const char* value : {"Runnin", "Runningg", "Rnning", "Rxnning", "Succeeded", "Succees", "failed", "FAILED",
                            "Enqueuee", "Reserves", "Dequeue", "Xequeued", "SchedReadx", "SchedSucceex",
                            "TimeoutBackof_", " Running", "Running ", "Pending", "?"}) {
    EXPECT_EQ(effective_phase(value), Phase::kSchedFailed) << value;
    EXPECT_FALSE(is_known_phase(value)) << value;
  }
}

schema::PodSet pod_set(const std::string& name, int64_t count, schema::ResourceList requests,
                       schema::ResourceList limits = {}) {
  schema::PodSet ps;
  ps.name = name;
  ps.count = count;
  ps.containers.push_back({"main", std::move(requests), std::move(limits)});
  return ps;
}

schema::Admission admission(const std::string& name, int64_t replicas,
                            std::optional<schema::ResourceList> resources = std::nullopt) {
  schema::Admission a;
  a.name = name;
  a.replicas = replicas;
  a.resources = std::move(resources);
  return a;
}

TEST(UnitFacts, a_unit_without_admissions_charges_its_resource) {
  schema::QueueUnit u;
  u.spec.resource = {{"cpu", "2"}, {"memory", "1Ki"}};
  u.spec.request = {{"cpu", "9"}};
  EXPECT_EQ(charge_of(u), (schema::ResourceVector{{"cpu", 2000}, {"memory", 1024}}));
}

TEST(UnitFacts, the_default_pod_set_charges_its_request_times_the_admitted_replicas) {
  schema::QueueUnit u;
  u.spec.resource = {{"cpu", "9"}};
  u.spec.request = {{"cpu", "500m"}};
  u.status.admissions = {admission(std::string(kDefaultPodSet), 3)};
  EXPECT_EQ(charge_of(u), (schema::ResourceVector{{"cpu", 1500}}));
  u.spec.request.clear();  // no request: the resource stands in
  EXPECT_EQ(charge_of(u), (schema::ResourceVector{{"cpu", 27000}}));
  // An admission naming no pod set of the unit charges only what it reports.
  u.status.admissions = {admission("workers", 3, schema::ResourceList{{"memory", "2"}})};
  EXPECT_EQ(charge_of(u), (schema::ResourceVector{{"memory", 2}}));
}

TEST(UnitFacts, pod_sets_charge_per_admission_the_larger_of_replicas_and_reported_resources) {
  schema::QueueUnit u;
  u.spec.pod_set = {pod_set("driver", 1, {{"cpu", "1"}}),
                    pod_set("workers", 4, {{"cpu", "2"}}, {{"cpu", "3"}, {"memory", "1Ki"}})};
  u.status.admissions = {admission("workers", 2, schema::ResourceList{{"cpu", "5"}, {"pods", "2"}}),
                         admission("driver", 1), admission("ghost", 7), admission("driver", 0)};
  // workers: 2 × {cpu 2, memory 1Ki (the limit stands in)} = {cpu 4, memory 2Ki}, reported cpu 5
  // is larger; driver: 1 × cpu 1; ghost: nothing; driver again with 0 replicas: nothing.
  EXPECT_EQ(charge_of(u), (schema::ResourceVector{{"cpu", 6000}, {"memory", 2048}, {"pods", 2}}));
}

TEST(UnitFacts, of_pod_sets_sharing_a_name_the_last_one_counts) {
  schema::QueueUnit u;
  u.spec.pod_set = {pod_set("workers", 1, {{"cpu", "1"}}), pod_set("workers", 1, {{"cpu", "4"}})};
  u.status.admissions = {admission("workers", 2)};
  EXPECT_EQ(charge_of(u), (schema::ResourceVector{{"cpu", 8000}}));
}

TEST(UnitFacts, a_status_given_in_place_of_the_units_own_decides_every_fact) {
  schema::QueueUnit u;
  u.spec.pod_set = {pod_set("workers", 2, {{"cpu", "1"}})};
  u.status.phase = "Enqueued";  // the unit's own status: waiting, nothing admitted
  schema::QueueUnitStatus dequeued;
  dequeued.phase = "Dequeued";
  dequeued.admissions = {admission("workers", 2)};
  dequeued.admissions[0].running = 2;

  EXPECT_FALSE(holds_quota(u));
  EXPECT_TRUE(holds_quota(dequeued));
  EXPECT_EQ(charge_of(u, dequeued), (schema::ResourceVector{{"cpu", 2000}}));
  EXPECT_TRUE(may_wait(u));
  EXPECT_FALSE(may_wait(u, dequeued));  // both replicas admitted
  EXPECT_FALSE(is_all_running(u));
  EXPECT_TRUE(is_all_running(dequeued));

  // The unit itself is untouched, and with that status as its own gives the same answers.
  EXPECT_EQ(u.status.phase, "Enqueued");
  schema::QueueUnit with = u;
  with.status = dequeued;
  EXPECT_EQ(holds_quota(with), holds_quota(dequeued));
  EXPECT_EQ(charge_of(with), charge_of(u, dequeued));
  EXPECT_EQ(may_wait(with), may_wait(u, dequeued));
  EXPECT_EQ(is_all_running(with), is_all_running(dequeued));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::actors
