// Which cluster a journal belongs to (behaviour.md §2.1). `serve` records the identity of the
// cluster it watches in the journal's meta at the journal's first start with it (the uid of the
// cluster's kube-system Namespace, or "simulator" for `serve --simulate`) and refuses a journal
// that records another: its objects, queues and unanswered writes are another cluster's.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "base/result.hpp"

namespace koordq::journal {

inline constexpr char kMetaCluster[] = "cluster";
// The identity `serve --simulate` records.
inline constexpr char kSimulatorCluster[] = "simulator";

// The identity recorded in the journal in `dir`, read without opening the journal for writing
// (nothing in `dir` changes). std::nullopt when there is no journal yet or it records none (a
// journal written before identities were recorded, or by `journal import`).
Result<std::optional<std::string>> recorded_cluster(const std::filesystem::path& dir);

// The error of a journal that records `recorded` when this process serves `cluster`: names both
// and the fix.
std::string other_cluster_message(const std::filesystem::path& dir, const std::string& recorded,
                                  const std::string& cluster);

}  // namespace koordq::journal
