#include "actors/wire/config_wire.hpp"

#include <charconv>

#include "base/decimal_ppm.hpp"
#include "base/go_duration.hpp"
#include "schema/wire_message.hpp"

namespace koordq::actors {
namespace {

Result<int64_t> integer(const std::string& name, const std::string& value, int64_t unit) {
  int64_t out = 0;
  const char* end = value.data() + value.size();
  const auto [ptr, ec] = std::from_chars(value.data(), end, out);
  if (ec != std::errc() || ptr != end || value.empty()) {
    return make_error("config flag " + name + "=" + value + " is not an integer");
  }
  if (out > INT64_MAX / unit || out < INT64_MIN / unit) return make_error("config flag " + name + " is out of range");
  return out * unit;
}

}  // namespace

Result<DecisionConfig> decision_config_from_flags(const ConfigFlags& flags) {
  DecisionConfig c;
  for (const auto& [name, value] : flags) {
    Result<int64_t> parsed = int64_t{0};
    if (name == "oversellrate") {
      parsed = base::parse_decimal_ppm(value);
      if (parsed.ok()) c.oversell_rate_ppm = *parsed;
    } else if (name == "pod-initial-backoff-seconds") {
      parsed = integer(name, value, base::kSecond);
      if (parsed.ok()) c.initial_backoff_nanos = *parsed;
    } else if (name == "pod-max-backoff-seconds") {
      parsed = integer(name, value, base::kSecond);
      if (parsed.ok()) c.max_backoff_nanos = *parsed;
    } else if (name == "schedule-suspend-time-ms") {
      parsed = integer(name, value, base::kMillisecond);
      if (parsed.ok()) c.schedule_suspend_nanos = *parsed;
    } else if (name == "default-reclaim-protect-time") {
      parsed = base::parse_go_duration(value);
      if (parsed.ok()) c.reclaim_protect_nanos = *parsed;
    } else if (name == "queue-namespace") {
      c.queue_namespace = value;
    } else if (name == "queue-items-max") {
      parsed = integer(name, value, 1);
      if (parsed.ok()) c.queue_items_max = *parsed;
    }
    if (!parsed.ok()) return make_error("config flag " + name + "=" + value + ": " + parsed.message());
  }
  return c;
}

Result<JournalConfig> read_journal_config(wire::Config::Reader in) {
  try {
    ConfigFlags flags;
    for (auto f : in.getFlags()) {
      flags.emplace_back(std::string(f.getName().cStr(), f.getName().size()),
                         std::string(f.getValue().cStr(), f.getValue().size()));
    }
    auto decision = decision_config_from_flags(flags);
    if (!decision.ok()) return decision.error();
    JournalConfig out;
    out.decision = std::move(decision).value();
    out.decision_logic_version = in.getDecisionLogicVersion();
    out.journal_uuid = std::string(in.getJournalUuid().cStr(), in.getJournalUuid().size());
    return out;
  } catch (const kj::Exception& e) {
    return make_error("malformed config record: " + wire::describe(e));
  }
}

}  // namespace koordq::actors
