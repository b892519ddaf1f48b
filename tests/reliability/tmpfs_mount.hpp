// A small tmpfs mounted for one test (needs CAP_SYS_ADMIN), unmounted when it goes out of scope.
// When it can, the test process first moves into a mount namespace of its own, so that the mount
// also goes away if the test crashes.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include <sched.h>
#include <sys/mount.h>

#include "base/result.hpp"

namespace koordq::reliability {

class TmpfsMount {
 public:
  // Creates `dir` and mounts a tmpfs of `bytes` on it.
  static Result<std::unique_ptr<TmpfsMount>> mount(const std::filesystem::path& dir, uint64_t bytes) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) return make_error("cannot create " + dir.string() + ": " + ec.message());
    if (::unshare(CLONE_NEWNS) == 0) ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr);
    const std::string options = "size=" + std::to_string(bytes);
    if (::mount("tmpfs", dir.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0) {
      return make_error("cannot mount a tmpfs on " + dir.string() + ": " + std::strerror(errno));
    }
    return std::unique_ptr<TmpfsMount>(new TmpfsMount(dir));
  }
  ~TmpfsMount() {
    if (::umount(dir_.c_str()) != 0) ::umount2(dir_.c_str(), MNT_DETACH);
  }
  TmpfsMount(const TmpfsMount&) = delete;
  TmpfsMount& operator=(const TmpfsMount&) = delete;

  const std::filesystem::path& dir() const { return dir_; }

 private:
  explicit TmpfsMount(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path dir_;
};

}  // namespace koordq::reliability
