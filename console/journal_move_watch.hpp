// Whether the journal directory a console reads still holds the journal it opened (docs/behaviour.md
// §25.2). A `serve` that finds the journal corrupt at start moves it aside (§21: the directory
// renamed to DIR.quarantined-<time>, or its contents moved into DIR/quarantined-<time>/) and starts
// a new one in DIR; a read-only instance must then stop catching up, since DIR's files are another
// journal's. The database directory DIR/db is compared by inode with the one opened.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include <sys/types.h>

namespace koordq::console {

class JournalMoveWatch {
 public:
  explicit JournalMoveWatch(std::filesystem::path journal_dir);

  // std::nullopt while DIR/db is the directory opened; once it is not, the message the console
  // shows from then on (where the journal went, when that can be found).
  std::optional<std::string> moved();

 private:
  std::optional<std::string> check() const;

  const std::filesystem::path dir_;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  std::mutex mu_;
  std::optional<std::string> moved_;  // sticky: a journal moved aside does not come back
};

}  // namespace koordq::console
