#include "journal/checkpoint_root.hpp"

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <sys/stat.h>

namespace koordq::journal {
namespace {

namespace fs = std::filesystem;

// `dir` as a directory of mode 0700 of its own, created when missing; a symbolic link or anything
// but a directory is refused.
Status private_directory(const fs::path& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno != ENOENT) return make_error("cannot inspect " + dir.string() + ": " + std::strerror(errno));
    if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST) {
      return make_error("cannot create " + dir.string() + ": " + std::strerror(errno));
    }
    if (::lstat(dir.c_str(), &st) != 0)
      return make_error("cannot inspect " + dir.string() + ": " + std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) return make_error(dir.string() + " is a symbolic link, which checkpoints do not follow");
  if (!S_ISDIR(st.st_mode)) return make_error(dir.string() + " is not a directory");
  return ok_status();
}

}  // namespace

Result<fs::path> checkpoint_dir_under(const fs::path& root, std::string_view requested) {
  if (requested.empty()) return make_error("name the checkpoint's directory");
  const fs::path asked(requested);
  for (const fs::path& part : asked) {
    if (part == "..") return make_error("the checkpoint's directory " + asked.string() + " contains \"..\"");
  }
  const fs::path base = root.lexically_normal();
  fs::path relative = asked;
  if (asked.is_absolute()) {
    relative = asked.lexically_normal().lexically_relative(base);
    if (relative.empty() || *relative.begin() == ".." || relative == ".") {
      return make_error("the checkpoint's directory " + asked.string() + " is not under " + base.string() +
                        " (--journal-checkpoint-root): name one under it");
    }
  }
  relative = relative.lexically_normal();
  if (relative.empty() || relative == ".") return make_error("name the checkpoint's directory under " + base.string());
  // The root's own parents are the operator's; from the root down every directory is checked.
  std::error_code ec;
  fs::create_directories(base.parent_path(), ec);
  if (ec) return make_error("cannot create " + base.parent_path().string() + ": " + ec.message());
  if (Status root_ok = private_directory(base); !root_ok.ok()) return root_ok.error();
  std::vector<fs::path> parts;
  for (const fs::path& part : relative) {
    if (!part.empty() && part != ".") parts.push_back(part);
  }
  if (parts.empty()) return make_error("name the checkpoint's directory under " + base.string());
  fs::path at = base;
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    at /= parts[i];
    if (Status step = private_directory(at); !step.ok()) return step.error();
  }
  at /= parts.back();
  struct stat st {};
  if (::lstat(at.c_str(), &st) == 0 || errno != ENOENT) {
    return make_error(at.string() + " already exists; name a directory that does not");
  }
  return at;
}

}  // namespace koordq::journal
