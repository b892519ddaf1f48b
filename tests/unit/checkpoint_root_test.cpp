#include "journal/checkpoint_root.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

namespace fs = std::filesystem;

mode_t mode_of(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::lstat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(CheckpointRoot, a_directory_under_the_root_is_allowed_and_its_parents_are_made_0700) {
  testing::TempDir dir;
  const fs::path root = dir / "journal/checkpoints";
  auto target = checkpoint_dir_under(root, (root / "2026/copy").string());
  ASSERT_TRUE(target.ok()) << target.message();
  EXPECT_EQ(*target, root / "2026/copy");
  EXPECT_FALSE(fs::exists(*target));  // the checkpoint makes its own
  EXPECT_EQ(mode_of(root), 0700u);
  EXPECT_EQ(mode_of(root / "2026"), 0700u);
}

TEST(CheckpointRoot, a_relative_name_is_under_the_root) {
  testing::TempDir dir;
  auto target = checkpoint_dir_under(dir / "root", "copy");
  ASSERT_TRUE(target.ok()) << target.message();
  EXPECT_EQ(*target, dir / "root" / "copy");
}

TEST(CheckpointRoot, a_path_outside_the_root_is_refused) {
  testing::TempDir dir;
  auto outside = checkpoint_dir_under(dir / "root", (dir / "elsewhere").string());
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.message(), "the checkpoint's directory " + (dir / "elsewhere").string() + " is not under " +
                                   (dir / "root").string() + " (--journal-checkpoint-root): name one under it");
  EXPECT_FALSE(checkpoint_dir_under(dir / "root", "/etc/cron.d/x").ok());
  EXPECT_FALSE(checkpoint_dir_under(dir / "root", (dir / "root").string()).ok());
  EXPECT_FALSE(checkpoint_dir_under(dir / "root", (dir / "rootless/x").string()).ok());
}

TEST(CheckpointRoot, dot_dot_is_refused_even_when_it_stays_under_the_root) {
  testing::TempDir dir;
  auto escaping = checkpoint_dir_under(dir / "root", (dir / "root/../x").string());
  ASSERT_FALSE(escaping.ok());
  EXPECT_NE(escaping.message().find("contains \"..\""), std::string::npos);
  EXPECT_FALSE(checkpoint_dir_under(dir / "root", "a/../b").ok());
  EXPECT_FALSE(checkpoint_dir_under(dir / "root", "../x").ok());
}

TEST(CheckpointRoot, a_symbolic_link_under_the_root_is_not_followed) {
  testing::TempDir dir;
  fs::create_directories(dir / "root");
  fs::create_directories(dir / "elsewhere");
  fs::create_directory_symlink(dir / "elsewhere", dir / "root/link");
  auto through = checkpoint_dir_under(dir / "root", (dir / "root/link/copy").string());
  ASSERT_FALSE(through.ok());
  EXPECT_EQ(through.message(), (dir / "root/link").string() + " is a symbolic link, which checkpoints do not follow");
  // The root itself a symbolic link: refused too.
  fs::create_directory_symlink(dir / "elsewhere", dir / "linked-root");
  EXPECT_FALSE(checkpoint_dir_under(dir / "linked-root", "copy").ok());
  // A symbolic link as the checkpoint's own name: it exists.
  fs::create_directory_symlink(dir / "elsewhere", dir / "root/taken");
  EXPECT_FALSE(checkpoint_dir_under(dir / "root", "taken").ok());
}

TEST(CheckpointRoot, an_existing_directory_is_refused) {
  testing::TempDir dir;
  fs::create_directories(dir / "root/copy");
  auto existing = checkpoint_dir_under(dir / "root", "copy");
  ASSERT_FALSE(existing.ok());
  EXPECT_EQ(existing.message(), (dir / "root/copy").string() + " already exists; name a directory that does not");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
