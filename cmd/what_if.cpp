#include "cmd/what_if.hpp"

#include <cstdint>

#include "base/decimal_ppm.hpp"
#include "base/time_units.hpp"
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
constexpr std::string_view kInitialBackoffKey = "pod-initial-backoff-seconds";
constexpr std::string_view kMaxBackoffKey = "pod-max-backoff-seconds";
using base::kSecond;
// A backoff in nanoseconds fits an int64_t.
constexpr int64_t kMaxBackoffSeconds = INT64_MAX / kSecond;

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
  // Every value is a policy a Queue may carry (§2.3): one other than Priority, Block or empty is
  // unsupported, and the decision logic gives that queue no scheduling loop (§6.6).
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
  if (key == kInitialBackoffKey || key == kMaxBackoffKey) {
    const std::optional<int64_t> seconds = parse_integer(value);
    if (!seconds || *seconds < 1 || *seconds > kMaxBackoffSeconds) return invalid_value(value, key);
    if (key == kInitialBackoffKey) return Change{PodInitialBackoffChange{*seconds}};
    return Change{PodMaxBackoffChange{*seconds}};
  }
  return unknown_key(key);
}

// The change `key` (as given) names; `name` is the key without a removal's trailing `-`.
Result<Change> setting_or_object_change(const std::string& key, std::string_view name, const std::string& value,
                                        bool removal) {
  if (name.starts_with(kQueuePrefix)) return queue_change(key, name.substr(kQueuePrefix.size()), value, removal);
  if (name.starts_with(kQuotaPrefix)) return quota_change(key, name.substr(kQuotaPrefix.size()), value, removal);
  if (!removal) return setting_change(key, value);
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
  if (removal && !name.ends_with('-')) {
    // Only annotations and max resources can be removed, with `KEY-` and no `=`; any other key
    // without `=` lacks its value.
    Result<Change> keyed = setting_or_object_change(result.key, name, "", false);
    if (!keyed.ok() && keyed.message() == unknown_key(result.key).message) return keyed.error();
    return invalid_value("", result.key);
  }
  if (removal) name.remove_suffix(1);
  Result<Change> change = setting_or_object_change(result.key, name, result.value, removal);
  if (!change.ok()) return change.error();
  result.change = std::move(change).value();
  return result;
}

Status check_backoff_order(const std::vector<WhatIfChange>& changes, std::optional<int64_t> initial_nanos,
                           std::optional<int64_t> max_nanos) {
  const WhatIfChange* initial = nullptr;
  const WhatIfChange* max = nullptr;
  for (const WhatIfChange& c : changes) {
    if (const auto* i = std::get_if<PodInitialBackoffChange>(&c.change)) {
      initial = &c;
      initial_nanos = i->seconds * kSecond;
    } else if (const auto* m = std::get_if<PodMaxBackoffChange>(&c.change)) {
      max = &c;
      max_nanos = m->seconds * kSecond;
    }
  }
  if (!initial_nanos || !max_nanos || *max_nanos >= *initial_nanos) return ok_status();
  if (max != nullptr) return invalid_value(max->value, max->key);
  if (initial != nullptr) return invalid_value(initial->value, initial->key);
  return ok_status();  // the journal's own settings: not a what-if value
}

}  // namespace koordq::cmd
