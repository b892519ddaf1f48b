// The renderings of `replay --what-if` (behaviour.md §24.3): the table of the units whose
// admission time differs with the summary line, and the JSON document.
#include <algorithm>
#include <cstdlib>

#include "base/json_string.hpp"
#include "base/rfc3339.hpp"
#include "base/time_units.hpp"
#include "replay/what_if.hpp"

namespace koordq::replay {
namespace {

using base::kMillisecond;

bool differs(const UnitAdmission& u) {
  return u.change != AdmissionChange::unchanged && u.change != AdmissionChange::never_admitted;
}

// Seconds to the millisecond, without trailing zeros: `12.5`, `-3`, `0.001`.
std::string seconds_text(int64_t nanos) {
  const int64_t millis = nanos / kMillisecond;
  const int64_t whole = std::llabs(millis) / 1000;
  int64_t fraction = std::llabs(millis) % 1000;
  std::string out = (millis < 0 ? "-" : "") + std::to_string(whole);
  if (fraction != 0) {
    std::string digits = std::to_string(1000 + fraction).substr(1);
    while (digits.back() == '0') digits.pop_back();
    out += "." + digits;
  }
  return out;
}

std::optional<int64_t> delta_of(const UnitAdmission& u) {
  if (!u.recorded || !u.what_if) return std::nullopt;
  return *u.what_if - *u.recorded;
}

std::string time_or_none(const std::optional<int64_t>& t) {
  return t ? base::format_rfc3339_millis(*t) : std::string("<none>");
}

}  // namespace

std::string render_what_if_text(const WhatIfResult& result) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"NAMESPACE", "NAME", "QUEUE", "RECORDED", "WHAT-IF", "DELTA", "ESTIMATED"});
  for (const auto& u : result.units) {
    if (!differs(u)) continue;
    const auto delta = delta_of(u);
    rows.push_back({u.namespace_, u.name, u.queue.empty() ? "<none>" : u.queue, time_or_none(u.recorded),
                    time_or_none(u.what_if), delta ? (*delta > 0 ? "+" : "") + seconds_text(*delta) + "s" : "<none>",
                    u.estimated ? "yes" : "no"});
  }
  std::string out;
  if (rows.size() > 1) {
    std::vector<size_t> widths(rows.front().size(), 0);
    for (const auto& row : rows) {
      for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
    }
    for (const auto& row : rows) {
      std::string line;
      for (size_t i = 0; i < row.size(); ++i) {
        line += row[i];
        if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 3, ' ');
      }
      out += line + "\n";
    }
  }
  const WhatIfSummary& s = result.summary;
  out += "earlier " + std::to_string(s.earlier) + ", later " + std::to_string(s.later) + ", unchanged " +
         std::to_string(s.unchanged) + ", newly admitted " + std::to_string(s.newly_admitted) +
         ", no longer admitted " + std::to_string(s.no_longer_admitted) + "\n";
  return out;
}

std::string render_what_if_json(const WhatIfResult& result,
                                const std::vector<std::pair<std::string, std::string>>& changes) {
  std::string out = "{\"changes\": {";
  for (size_t i = 0; i < changes.size(); ++i) {
    if (i) out += ", ";
    base::append_json_string(out, changes[i].first);
    out += ": ";
    base::append_json_string(out, changes[i].second);
  }
  out += "}, \"units\": [";
  bool first = true;
  for (const auto& u : result.units) {
    if (!differs(u)) continue;
    if (!first) out += ", ";
    first = false;
    out += "{\"namespace\": ";
    base::append_json_string(out, u.namespace_);
    out += ", \"name\": ";
    base::append_json_string(out, u.name);
    out += ", \"uid\": ";
    base::append_json_string(out, u.uid);
    out += ", \"queue\": ";
    base::append_json_string(out, u.queue);
    out += ", \"recordedAdmission\": ";
    if (u.recorded) {
      base::append_json_string(out, base::format_rfc3339_millis(*u.recorded));
    } else {
      out += "null";
    }
    out += ", \"whatIfAdmission\": ";
    if (u.what_if) {
      base::append_json_string(out, base::format_rfc3339_millis(*u.what_if));
    } else {
      out += "null";
    }
    const auto delta = delta_of(u);
    out += ", \"deltaSeconds\": " + (delta ? seconds_text(*delta) : std::string("null"));
    out += ", \"estimated\": " + std::string(u.estimated ? "true" : "false") + "}";
  }
  const WhatIfSummary& s = result.summary;
  out += "], \"summary\": {\"earlier\": " + std::to_string(s.earlier) + ", \"later\": " + std::to_string(s.later) +
         ", \"unchanged\": " + std::to_string(s.unchanged) +
         ", \"newlyAdmitted\": " + std::to_string(s.newly_admitted) +
         ", \"noLongerAdmitted\": " + std::to_string(s.no_longer_admitted) + "}}\n";
  return out;
}

}  // namespace koordq::replay
