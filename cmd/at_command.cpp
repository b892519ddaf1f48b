// `koordq at WHEN OBJECT` (behaviour.md §24.1): resolves WHEN to a revision of the journal or the
// export, rebuilds the decision state there as replay does (the newest snapshot at or before it,
// the records after it, under the configuration of the journal's own config records), and prints
// what the live endpoint would have answered, rendered by the live APIs' own code.
#include <algorithm>
#include <chrono>
#include <cstdio>

#include "api/debug_render.hpp"
#include "api/queueing_metrics.hpp"
#include "api/unit_render.hpp"
#include "api/visibility_render.hpp"
#include "cmd/at_source.hpp"
#include "cmd/at_table.hpp"
#include "cmd/at_yaml.hpp"
#include "cmd/command_names.hpp"
#include "cmd/commands.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/progress.hpp"
#include "cmd/wall_clock.hpp"
#include "journal/revision_lookup.hpp"
#include "replay/replay.hpp"

namespace koordq::cmd {
namespace {

using Kind = AtObject::Kind;

// WHEN as a revision, with the messages of behaviour.md §16.7.
Result<uint64_t> resolve_when(journal::JournalReader& reader, const journal::RetainedRange& range, const When& when) {
  if (when.kind == When::Kind::revision) return journal::check_revision(range, when.revision);
  if (when.unix_nanos > wall_now()) {
    return make_error("invalid value \"" + when.text +
                      "\" for WHEN: must be an RFC3339 time not in the future (or rev:N); see 'koordq at --help'");
  }
  return journal::revision_at_time(reader, range, when.unix_nanos, when.text);
}

api::UnitFilter unit_filter(const AtOptions& o) {
  api::UnitFilter filter;
  if (o.phases.empty()) return filter;
  filter.phases.emplace();
  for (int p = 0; p <= static_cast<int>(actors::Phase::kSchedFailed); ++p) {
    const auto phase = static_cast<actors::Phase>(p);
    if (std::find(o.phases.begin(), o.phases.end(), actors::phase_name(phase)) != o.phases.end()) {
      filter.phases->insert(phase);
    }
  }
  return filter;
}

// GET /metrics of the leader, less the process-local families (§15.4): sorted by family name as
// the metrics server sorts them.
std::string render_metrics(const actors::Scheduler& s) {
  api::SeriesMemory memory;
  std::string text;
  std::vector<api::WrittenFamily> written = api::write_queueing_families(s, memory, text);
  return api::merged_exposition(std::move(written), text, {api::e2e_latency_family(s)});
}

struct Answer {
  std::optional<std::string> body;  // std::nullopt: the object does not exist at the revision
  bool indented = false;            // the debug API's bodies
};

Answer render_json(const actors::Scheduler& s, uint64_t revision, const AtOptions& o) {
  const api::PageParams page{o.offset, o.limit};
  switch (o.object.kind) {
    case Kind::queues:
      return {api::render_queue_list(s, revision, page)};
    case Kind::quotas:
      return {api::render_quota_list(s, revision, page)};
    case Kind::queue:
      return {api::render_queue_units(s, revision, o.object.name, unit_filter(o), page)};
    case Kind::quota:
      return {api::render_quota_units(s, revision, o.object.name, unit_filter(o), page)};
    case Kind::unit:
      return {api::render_unit(s, revision, o.object.namespace_name, o.object.name)};
    case Kind::debug_elasticquota:
      return {api::render_debug_quotas(s), true};
    case Kind::debug_queue:
      return {api::render_debug_queues(s), true};
    case Kind::debug_userquota:
      return {api::render_debug_user_quotas(s), true};
    case Kind::metrics:
      break;
  }
  return {};
}

// §16.7's 404 messages.
std::string not_found(const AtObject& object) {
  switch (object.kind) {
    case Kind::queue:
      return "queue.scheduling.x-k8s.io \"" + object.name + "\" not found";
    case Kind::quota:
      return "elasticquota.scheduling.sigs.k8s.io \"" + object.name + "\" not found";
    default:
      return "queueunit \"" + object.namespace_name + "/" + object.name + "\" not found";
  }
}

std::optional<std::string> render_table(Kind kind, const std::string& json) {
  if (kind == Kind::queues) return queue_list_table(json);
  if (kind == Kind::quotas) return quota_list_table(json);
  return unit_summary_table(json);
}

void print(const std::string& text) {
  std::fwrite(text.data(), 1, text.size(), stdout);
}

}  // namespace

int run_at(const AtOptions& options) {
  HistoryRange needed;
  if (options.when.kind == When::Kind::revision) {
    needed.to_seq = options.when.revision;
  } else if (options.when.unix_nanos <= wall_now()) {
    needed.to_time = options.when.unix_nanos;
  }
  needed.from_snapshot = true;
  int exit_code = kExitJournalUnreadable;
  auto history = open_history(kAtCommand, options.source, needed, &exit_code);
  if (!history) return exit_code;
  journal::JournalReader& reader = *history->reader;

  auto range = journal::retained_range(reader);
  if (!range.ok()) return fail_command(kAtCommand, range.message(), kExitJournalUnreadable);
  if (range->last == 0) {
    return fail_command(kAtCommand, history->name + " holds no records: there is no state to show",
                        kExitJournalUnreadable);
  }
  auto revision = resolve_when(reader, *range, options.when);
  if (!revision.ok()) return fail_command(kAtCommand, revision.message(), kExitUsage);

  auto state = [&] {
    TerminalProgress progress("rebuilding the state", *revision - range->first + 1, kPlainProgressEvery);
    return replay::replay_to(reader, *revision,
                             [&](uint64_t seq, uint64_t) { progress.update(seq - range->first + 1, seq); });
  }();
  if (!state.ok()) {
    const std::string hint = options.source.kind == JournalSource::Kind::journal_dir
                                 ? "; check the journal with 'koordq journal verify'"
                             : options.source.kind == JournalSource::Kind::archive
                                 ? "; check the archive with 'koordq archive verify'"
                                 : "; check the export with 'koordq journal verify --export'";
    return fail_command(kAtCommand, "cannot rebuild the state from " + history->name + ": " + state.message() + hint,
                        kExitJournalUnreadable);
  }
  const actors::Scheduler& s = state->scheduler;

  if (options.output == AtOutput::prometheus_text) {
    print(render_metrics(s));
    return kExitSuccess;
  }
  const Answer answer = render_json(s, *revision, options);
  if (!answer.body) return fail_command(kAtCommand, not_found(options.object), kExitCheckFailed);
  std::optional<std::string> text;
  switch (options.output) {
    case AtOutput::yaml:
      text = json_to_yaml(*answer.body);
      break;
    case AtOutput::table:
      text = render_table(options.object.kind, *answer.body);
      break;
    default:
      text = *answer.body + "\n";
  }
  if (!text) return fail_command(kAtCommand, "internal error: the answer did not render", kExitJournalUnreadable);
  print(*text);
  return kExitSuccess;
}

}  // namespace koordq::cmd
