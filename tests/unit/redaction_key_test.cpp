#include "journal/redaction_key.hpp"

#include <fstream>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "tests/support/temp_dir.hpp"

namespace koordq::journal {
namespace KOORDQ_TEST_LOCAL {

TEST(RedactionKey, made_once_0600_and_read_back_the_same) {
  testing::TempDir dir;
  auto made = load_or_create_redaction_key(dir.path());
  ASSERT_TRUE(made.ok()) << made.message();
  EXPECT_EQ(made->size(), 32u);
  struct stat st {};
  ASSERT_EQ(::stat((dir / kRedactionKeyFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  auto again = load_or_create_redaction_key(dir.path());
  ASSERT_TRUE(again.ok()) << again.message();
  EXPECT_EQ(*again, *made);
  EXPECT_FALSE(std::filesystem::exists(dir / (std::string(kRedactionKeyFile) + ".new")));
}

TEST(RedactionKey, each_journal_has_its_own) {
  testing::TempDir a;
  testing::TempDir b;
  EXPECT_NE(*load_or_create_redaction_key(a.path()), *load_or_create_redaction_key(b.path()));
}

TEST(RedactionKey, a_damaged_key_file_is_an_error_naming_the_file_and_the_fix) {
  testing::TempDir dir;
  std::ofstream(dir / kRedactionKeyFile) << "not hex\n";
  auto damaged = load_or_create_redaction_key(dir.path());
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.message(), "the redaction key " + (dir / kRedactionKeyFile).string() +
                                   " is not 64 lowercase hex digits; delete it to start a new one (later markers "
                                   "then differ from earlier ones of the same values)");
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::journal
