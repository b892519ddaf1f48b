#include "cmd/what_if.hpp"

#include "base/decimal_ppm.hpp"
#include "cmd/flag_reader.hpp"
#include "cmd/object_names.hpp"
#include "schema/quantity.hpp"

namespace koordq::cmd {
namespace {

constexpr std::string_view kQueuePrefix = "queue.";
constexpr std::string_view kQuotaPrefix = "quota.";
constexpr std::string_view kAnnotationInfix = ".annotation.";
constexpr std::string_view kMaxInfix = ".max.";
constexpr std::string_view kPolicySuffix = ".policy";

// behaviour.md §2.3 and §6.6: every policy a Queue may carry; the unsupported ones are valid
// questions (what if this queue had no scheduling loop).
constexpr std::string_view kQueuePolicies[] = {"", "Priority", "Block", "Intelligent", "FIFO", "Round"};

Error unknown_key(std::string_view key) {
  return make_error("unknown what-if key \"" + std::string(key) + "\"");
}

Error invalid_value(std::string_view value, std::string_view key) {
  return make_error("invalid what-if value \"" + std::string(value) + "\" for " + std::string(key));
}

bool is_field_name(std::string_view text) {
  return !text.empty() && text.find_first_of(" \t\n=") == std::string_view::npos;
}

using Change = decltype(WhatIfChange::change);

// `queue.<name>.annotation.<key>` or `queue.<name>.policy`; <name> ends at the first
// `.annotation.`, or before the final `.policy`.
Result<Change> queue_change(std::string_view key, std::string_view rest, const std::string& value, bool removal) {
  if (const size_t infix = rest.find(kAnnotationInfix); infix != std::string_view::npos) {
    const std::string_view queue = rest.substr(0, infix);
    const std::string_view annotation = rest.substr(infix + kAnnotationInfix.size());
    if (!is_object_name(queue) || !is_field_name(annotation)) return unknown_key(key);
    QueueAnnotationChange change{std::string(queue), std::string(annotation), std::nullopt};
    if (!removal) change.value = value;
    return Change{std::move(change)};
  }
  if (removal || !rest.ends_with(kPolicySuffix)) return unknown_key(key);
  const std::string_view queue = rest.substr(0, rest.size() - kPolicySuffix.size());
  if (!is_object_name(queue)) return unknown_key(key);
  bool known_policy = false;
  for (std::string_view policy : kQueuePolicies) known_policy = known_policy || policy == value;
  if (!known_policy) return invalid_value(value, key);
  return Change{QueuePolicyChange{std::string(queue), value}};
}

// `quota.<name>.max.<resource>`; <name> ends at the first `.max.`.
Result<Change> quota_change(std::string_view key, std::string_view rest, const std::string& value, bool removal) {
  const size_t infix = rest.find(kMaxInfix);
  if (infix == std::string_view::npos) return unknown_key(key);
  const std::string_view quota = rest.substr(0, infix);
  const std::string_view resource = rest.substr(infix + kMaxInfix.size());
  if (!is_object_name(quota) || !is_field_name(resource)) return unknown_key(key);
  QuotaMaxChange change{std::string(quota), std::string(resource), std::nullopt};
  if (!removal) {
    if (!schema::Quantity::parse(value).ok()) return invalid_value(value, key);
    change.quantity = value;
  }
  return Change{std::move(change)};
}

Result<Change> setting_change(std::string_view key, const std::string& value) {
  if (key == "oversellrate") {
    const Result<int64_t> rate = base::parse_decimal_ppm(value);
    if (!rate.ok() || *rate <= 0) return invalid_value(value, key);
    return Change{OversellRateChange{*rate}};
  }
  if (key == "pod-initial-backoff-seconds" || key == "pod-max-backoff-seconds") {
    const std::optional<int64_t> seconds = parse_integer(value);
    if (!seconds || *seconds < 1) return invalid_value(value, key);
    if (key == "pod-initial-backoff-seconds") return Change{PodInitialBackoffChange{*seconds}};
    return Change{PodMaxBackoffChange{*seconds}};
  }
  return unknown_key(key);
}

}  // namespace

Result<WhatIfChange> parse_what_if(std::string_view argument) {
  const size_t equals = argument.find('=');
  const bool removal = equals == std::string_view::npos;
  WhatIfChange result;
  result.key = std::string(argument.substr(0, equals));
  if (!removal) result.value = std::string(argument.substr(equals + 1));

  std::string_view name = result.key;
  if (removal) {
    // Only annotations and max resources can be removed, with `KEY-` and no `=`.
    if (!name.ends_with('-')) return make_error("what-if \"" + result.key + "\" needs KEY=VALUE, or KEY- to remove");
    name.remove_suffix(1);
  }
  Result<Change> change = unknown_key(result.key);
  if (name.starts_with(kQueuePrefix)) {
    change = queue_change(result.key, name.substr(kQueuePrefix.size()), result.value, removal);
  } else if (name.starts_with(kQuotaPrefix)) {
    change = quota_change(result.key, name.substr(kQuotaPrefix.size()), result.value, removal);
  } else if (!removal) {
    change = setting_change(result.key, result.value);
  }
  if (!change.ok()) return change.error();
  result.change = std::move(change).value();
  return result;
}

}  // namespace koordq::cmd
