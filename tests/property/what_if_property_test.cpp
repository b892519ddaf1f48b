// `replay --what-if` over generated scenarios played against the simulated cluster
// (scenario_generators.hpp, scenario_journal.hpp): settings that change nothing report no
// difference (every unit's what-if admission is its recorded one), and with a changed quota the
// summary accounts for every unit admitted in either run.
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "journal/export_line.hpp"
#include "replay/export_journal.hpp"
#include "replay/what_if.hpp"
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

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::testing
