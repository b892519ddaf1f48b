// `koordq at -o table` (behaviour.md §24.1): the visibility API's list and QueueUnitsSummary bodies
// as tables. A header row in upper case, then one row per item; columns left-aligned and separated
// by three spaces; an empty value is `<none>`; resource lists as `cpu=4,memory=8Gi` and phase counts
// as `Dequeued=3,Enqueued=2`, in bytewise order. The tables read the JSON body itself, so they show
// exactly what -o json shows.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace koordq::cmd {

// Rows of cells as a table; every row has the header's number of cells.
std::string format_table(const std::vector<std::vector<std::string>>& rows);

// NAME, POLICY, ACTIVE, BACKOFF, ASSUMED, PHASES of a QueueList; std::nullopt when it does not parse.
std::optional<std::string> queue_list_table(std::string_view json);
// NAME, PARENT, MIN, MAX, USED, PHASES of an ElasticQuotaList.
std::optional<std::string> quota_list_table(std::string_view json);
// NAMESPACE, NAME, QUOTA, QUEUE, PRIORITY, POSITION, PHASE, REQUEST, RUNNING, PENDING, CREATED of a
// QueueUnitsSummary.
std::optional<std::string> unit_summary_table(std::string_view json);

}  // namespace koordq::cmd
