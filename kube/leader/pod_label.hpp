// koordq's own Pod label `koord-queue-leader: "true"` (behaviour.md §1, §19): merge-PATCH bodies
// that set and remove it, and whether a Pod read has it.
#pragma once

#include <string>
#include <string_view>

namespace koordq::kube {

inline constexpr const char* kLeaderLabel = "koord-queue-leader";

// `{"metadata":{"labels":{"koord-queue-leader":"true"}}}`
std::string leader_label_set_body();
// `{"metadata":{"labels":{"koord-queue-leader":null}}}`
std::string leader_label_remove_body();

// `/api/v1/namespaces/<ns>/pods/<name>`
std::string pod_path(const std::string& namespace_, const std::string& name);

// Whether the Pod JSON carries the label (any value). A body that does not parse counts as
// carrying it, so that removal is attempted.
bool pod_has_leader_label(std::string_view pod_json);

}  // namespace koordq::kube
