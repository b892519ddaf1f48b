#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "journal/cluster_identity.hpp"
#include "journal/journal.hpp"
#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

namespace fs = std::filesystem;

Result<std::unique_ptr<Journal>> open_for(const fs::path& dir, const std::string& cluster) {
  JournalOptions o;
  o.dir = dir;
  o.cluster = cluster;
  return Journal::open(o);
}

// Every file under `dir` and its bytes.
std::map<std::string, std::string> files_of(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    files[fs::relative(entry.path(), dir).string()] = bytes.str();
  }
  return files;
}

TEST(JournalClusterIdentity, the_first_start_records_the_cluster_and_the_same_cluster_opens_it_again) {
  testing::TempDir dir;
  EXPECT_FALSE(recorded_cluster(dir.path())->has_value());
  {
    auto j = open_for(dir.path(), "uid-a");
    ASSERT_TRUE(j.ok()) << j.message();
  }
  EXPECT_EQ(recorded_cluster(dir.path())->value_or(""), "uid-a");
  auto again = open_for(dir.path(), "uid-a");
  EXPECT_TRUE(again.ok()) << again.message();
}

TEST(JournalClusterIdentity, another_cluster_is_refused_with_nothing_in_the_directory_changed) {
  testing::TempDir dir;
  { ASSERT_TRUE(open_for(dir.path(), "uid-a").ok()); }
  const auto before = files_of(dir.path());
  auto other = open_for(dir.path(), "uid-b");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.message(),
            "journal " + dir.path().string() +
                " belongs to the cluster whose kube-system Namespace has uid uid-a, not to the cluster "
                "whose kube-system Namespace has uid uid-b that this koordq serves; nothing in it was "
                "changed: give this koordq its own empty volume (or --journal-dir), or start it "
                "against the cluster that wrote the journal");
  EXPECT_EQ(files_of(dir.path()), before);
}

TEST(JournalClusterIdentity, a_simulator_journal_and_a_cluster_journal_refuse_each_other) {
  testing::TempDir simulated;
  testing::TempDir cluster;
  { ASSERT_TRUE(open_for(simulated.path(), kSimulatorCluster).ok()); }
  { ASSERT_TRUE(open_for(cluster.path(), "uid-a").ok()); }
  auto on_cluster = open_for(simulated.path(), "uid-a");
  ASSERT_FALSE(on_cluster.ok());
  EXPECT_NE(on_cluster.message().find("belongs to the simulator (serve --simulate), not to the cluster"),
            std::string::npos);
  auto simulating = open_for(cluster.path(), kSimulatorCluster);
  ASSERT_FALSE(simulating.ok());
  EXPECT_NE(simulating.message().find("not to the simulator (serve --simulate) that this koordq serves"),
            std::string::npos);
}

TEST(JournalClusterIdentity, a_journal_without_an_identity_takes_the_first_cluster_that_opens_it) {
  testing::TempDir dir;
  { ASSERT_TRUE(open_for(dir.path(), "").ok()); }  // the journal commands record nothing
  EXPECT_FALSE(recorded_cluster(dir.path())->has_value());
  { ASSERT_TRUE(open_for(dir.path(), "uid-b").ok()); }
  EXPECT_EQ(recorded_cluster(dir.path())->value_or(""), "uid-b");
  EXPECT_TRUE(open_for(dir.path(), "").ok());  // and the journal commands check nothing
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
