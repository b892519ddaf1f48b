#include "journal/cluster_identity.hpp"

#include <system_error>

#include "journal/rocks_store.hpp"

namespace koordq::journal {
namespace {

std::string described(const std::string& identity) {
  if (identity == kSimulatorCluster) return "the simulator (serve --simulate)";
  return "the cluster whose kube-system Namespace has uid " + identity;
}

}  // namespace

Result<std::optional<std::string>> recorded_cluster(const std::filesystem::path& dir) {
  const std::filesystem::path db = dir / "db";
  std::error_code ec;
  if (!std::filesystem::exists(db / "CURRENT", ec)) return std::optional<std::string>();
  auto store = RocksStore::open_read_only(db);
  if (!store.ok()) return store.error();
  return (*store)->get((*store)->meta(), kMetaCluster);
}

std::string other_cluster_message(const std::filesystem::path& dir, const std::string& recorded,
                                  const std::string& cluster) {
  return "journal " + dir.string() + " belongs to " + described(recorded) + ", not to " + described(cluster) +
         " that this koordq serves; nothing in it was changed: give this koordq its own empty volume (or "
         "--journal-dir), or start it against the cluster that wrote the journal";
}

}  // namespace koordq::journal
