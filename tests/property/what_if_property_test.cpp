// `replay --what-if` over generated scenarios played against the simulated cluster
// (scenario_generators.hpp, scenario_journal.hpp): settings that change nothing report no
// difference (every unit's what-if admission is its recorded one), with a changed quota the
// summary accounts for every unit admitted in either run, and no change admits a unit before it
// was created.
#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "journal/export_line.hpp"
#include "replay/export_journal.hpp"
#include "replay/what_if.hpp"
#include "schema/wire_codec.hpp"
#include "schema/wire_message.hpp"
#include "tests/support/scenario_generators.hpp"
#include "tests/support/scenario_journal.hpp"

namespace koordq::testing {
namespace KOORDQ_TEST_LOCAL {

std::unique_ptr<replay::ExportJournal> journal_of(const std::vector<journal::StoredRecord>& records) {
  std::string text;
  for (const auto& r : records) text += journal::render_export_line(r) + "\n";
  std::istringstream in(text);
  std::optional<journal::ChainBreak> broken;
  auto loaded = replay::ExportJournal::load(in, broken);
  if (!loaded.ok()) RC_FAIL("export: " + loaded.message());
  return std::move(loaded).value();
}

replay::WhatIfResult ask(replay::ExportJournal& journal, const replay::WhatIfSettings& settings) {
  auto result = replay::what_if(journal.reader(), UINT64_MAX, settings);
  if (!result.ok()) RC_FAIL("what-if: " + result.message());
  return std::move(result).value();
}

// One journal per case (loading it is most of the cost): settings that change nothing, then a
// changed quota.
RC_GTEST_PROP(WhatIfProperty, no_change_reports_the_recorded_admissions_and_a_change_accounts_for_every_unit, ()) {
  const auto scenario = *testgen::scenario();
  auto journal = journal_of(ScenarioJournal::record(scenario));

  replay::WhatIfSettings nothing;
  // Objects that never exist, and the decision settings the journal already has.
  nothing.quota_max["no-such-quota"]["cpu"] = "1";
  nothing.queue_policy["no-such-queue"] = "Block";
  nothing.oversell_rate_ppm = actors::DecisionConfig{}.oversell_rate_ppm;
  const auto same = ask(*journal, nothing);
  uint64_t admitted = 0;
  for (const auto& u : same.units) {
    RC_ASSERT(u.what_if == u.recorded);
    RC_ASSERT(!u.estimated);
    if (u.recorded) ++admitted;
  }
  RC_TAG(admitted == 0 ? "none admitted" : "some admitted");
  RC_ASSERT(same.summary == (replay::WhatIfSummary{0, 0, admitted, 0, 0}));
  RC_ASSERT(replay::render_what_if_text(same) ==
            "earlier 0, later 0, unchanged " + std::to_string(admitted) + ", newly admitted 0, no longer admitted 0\n");

  if (scenario.quotas.empty()) return;
  const auto& quota = *rc::gen::elementOf(scenario.quotas);
  const int64_t cpu = *rc::gen::inRange<int64_t>(0, 64);
  replay::WhatIfSettings settings;
  settings.quota_max[quota.name]["cpu"] = std::to_string(cpu);
  const auto r = ask(*journal, settings);
  uint64_t recorded = 0;
  uint64_t what_if = 0;
  for (const auto& u : r.units) {
    recorded += u.recorded ? 1 : 0;
    what_if += u.what_if ? 1 : 0;
    RC_ASSERT(u.change == replay::classify_admission(u.recorded, u.what_if));
    if (u.estimated) RC_ASSERT(u.change == replay::AdmissionChange::newly_admitted);
  }
  const auto& s = r.summary;
  RC_TAG(s.earlier + s.later + s.newly_admitted + s.no_longer_admitted == 0 ? "change: no difference"
                                                                            : "change: differences");
  RC_ASSERT(s.earlier + s.later + s.unchanged + s.no_longer_admitted == recorded);
  RC_ASSERT(s.earlier + s.later + s.unchanged + s.newly_admitted == what_if);
}

// The time of each unit's first watch record, by uid: its creation as the journal knows it.
std::map<std::string, int64_t> creations(const std::vector<journal::StoredRecord>& records) {
  std::map<std::string, int64_t> out;
  for (const auto& r : records) {
    if (r.kind() != journal::RecordKind::kWatch) continue;
    auto object = schema::read_watched_object(r.reader().getBody().getWatch().getObject());
    if (!object.ok()) RC_FAIL("watch record " + std::to_string(r.seq()) + ": " + object.message());
    if (const auto* unit = std::get_if<schema::QueueUnit>(&*object)) out.emplace(unit->metadata.uid, r.time());
  }
  return out;
}

// Changes that admit units earlier (more quota everywhere, a shorter backoff), later (less
// quota, a longer backoff) or not at all (an unsupported policy): whatever the two model runs
// make of them, a unit's what-if admission is never before its creation, nor before the
// journal's first record.
RC_GTEST_PROP(WhatIfProperty, no_unit_is_admitted_before_it_was_created, ()) {
  const auto scenario = *testgen::scenario();
  const auto records = ScenarioJournal::record(scenario);
  auto journal = journal_of(records);
  const auto created = creations(records);

  replay::WhatIfSettings settings;
  const int64_t cpu = *rc::gen::element<int64_t>(0, 1, 16, 1024);
  for (const auto& quota : scenario.quotas) {
    if (*rc::gen::arbitrary<bool>()) settings.quota_max[quota.name]["cpu"] = std::to_string(cpu);
  }
  settings.initial_backoff_seconds = *rc::gen::element<int64_t>(1, 1, 5);
  settings.max_backoff_seconds = *settings.initial_backoff_seconds * *rc::gen::element<int64_t>(1, 2, 30);
  for (const auto& queue : scenario.queues) {
    if (*rc::gen::element(0, 0, 0, 1) == 1) settings.queue_policy[queue.name] = "FIFO";
  }
  const auto r = ask(*journal, settings);
  uint64_t moved = 0;
  for (const auto& u : r.units) {
    if (!u.what_if) continue;
    const auto c = created.find(u.uid);
    RC_ASSERT(c != created.end());
    RC_ASSERT(*u.what_if >= c->second);
    RC_ASSERT(*u.what_if >= records.front().time());
    if (u.recorded && *u.what_if != *u.recorded) ++moved;
  }
  RC_TAG(moved == 0 ? "no admission moved" : "admissions moved");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
