// The bearer token sent as `Authorization: Bearer …`: fixed (kubeconfig `token`) or read from a
// file (kubeconfig `tokenFile`, the in-cluster service account). A file is re-read whenever its
// modification time or size changes, so a rotated service-account token is picked up without a
// restart; when a re-read fails, the last good token stays in use. The token never appears in an
// error message or a log line. Thread-safe.
#pragma once

#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "base/result.hpp"

namespace koordq::kube {

class BearerToken {
 public:
  static std::shared_ptr<BearerToken> fixed(std::string token);
  static std::shared_ptr<BearerToken> from_file(std::filesystem::path path);

  // The current token; an error names the file and why it could not be read.
  Result<std::string> value();
  // Where the token comes from, for messages: `token in kubeconfig` or the file's path.
  std::string source() const;

 private:
  BearerToken() = default;

  std::mutex mutex_;
  std::string token_;
  std::filesystem::path path_;  // empty: fixed
  std::filesystem::file_time_type mtime_{};
  uintmax_t size_ = 0;
  bool loaded_ = false;
};

}  // namespace koordq::kube
