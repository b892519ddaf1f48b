#include "console/journal_move_watch.hpp"

#include <sys/stat.h>

#include "base/log.hpp"

namespace koordq::console {
namespace {

std::optional<std::pair<dev_t, ino_t>> identity(const std::filesystem::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::make_pair(st.st_dev, st.st_ino);
}

// The newest DIR.quarantined-* beside DIR or DIR/quarantined-* inside it (the stamps sort by time).
std::optional<std::filesystem::path> quarantined_copy(const std::filesystem::path& dir) {
  std::optional<std::filesystem::path> newest;
  std::error_code ec;
  const auto consider = [&](const std::filesystem::path& folder, const std::string& prefix) {
    for (const auto& entry : std::filesystem::directory_iterator(folder, ec)) {
      if (entry.path().filename().string().rfind(prefix, 0) != 0) continue;
      if (!newest || entry.path().filename() > newest->filename()) newest = entry.path();
    }
  };
  consider(dir.parent_path().empty() ? std::filesystem::path(".") : dir.parent_path(),
           dir.filename().string() + ".quarantined-");
  consider(dir, "quarantined-");
  return newest;
}

}  // namespace

JournalMoveWatch::JournalMoveWatch(std::filesystem::path journal_dir) : dir_(std::move(journal_dir)) {
  if (const auto id = identity(dir_ / "db")) std::tie(device_, inode_) = *id;
}

std::optional<std::string> JournalMoveWatch::check() const {
  const auto id = identity(dir_ / "db");
  if (id && id->first == device_ && id->second == inode_) return std::nullopt;
  std::string message = "the journal in " + dir_.string() + " was moved aside while this console read it";
  if (const auto copy = quarantined_copy(dir_)) {
    message += " (quarantined to " + copy->string() + ": a serve found it corrupt)";
  } else if (!id) {
    message += " (" + (dir_ / "db").string() + " is gone)";
  }
  return message +
         ". The page shows the journal as it was read before; it no longer follows it. Open `koordq console "
         "--journal-dir` on the quarantined copy to read it whole, or on " +
         dir_.string() + " for the journal that replaced it.";
}

std::optional<std::string> JournalMoveWatch::moved() {
  std::lock_guard lock(mu_);
  if (!moved_) {
    moved_ = check();
    if (moved_) KQ_LOG_WARNING("console: {}", *moved_);
  }
  return moved_;
}

}  // namespace koordq::console
