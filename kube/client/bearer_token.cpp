#include "kube/client/bearer_token.hpp"

#include <fstream>
#include <sstream>
#include <system_error>

namespace koordq::kube {
namespace {

std::string trim(std::string text) {
  const char* blanks = " \t\r\n";
  size_t begin = text.find_first_not_of(blanks);
  if (begin == std::string::npos) return {};
  size_t end = text.find_last_not_of(blanks);
  return text.substr(begin, end - begin + 1);
}

}  // namespace

std::shared_ptr<BearerToken> BearerToken::fixed(std::string token) {
  std::shared_ptr<BearerToken> result(new BearerToken());
  result->token_ = trim(std::move(token));
  result->loaded_ = true;
  return result;
}

std::shared_ptr<BearerToken> BearerToken::from_file(std::filesystem::path path) {
  std::shared_ptr<BearerToken> result(new BearerToken());
  result->path_ = std::move(path);
  return result;
}

std::string BearerToken::source() const {
  return path_.empty() ? std::string("token in kubeconfig") : "token file " + path_.string();
}

Result<std::string> BearerToken::value() {
  std::lock_guard lock(mutex_);
  if (path_.empty()) return token_;
  std::error_code ec;
  std::filesystem::file_time_type mtime = std::filesystem::last_write_time(path_, ec);
  uintmax_t size = ec ? 0 : std::filesystem::file_size(path_, ec);
  if (ec) {
    if (loaded_) return token_;
    return make_error("token file " + path_.string() + ": " + ec.message() +
                      "; check that the file exists and is readable (a mounted service-account token, or "
                      "the kubeconfig's tokenFile)");
  }
  if (loaded_ && mtime == mtime_ && size == size_) return token_;
  std::ifstream in(path_, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in.good() && !in.eof()) {
    if (loaded_) return token_;
    return make_error("token file " + path_.string() + ": cannot be read; check its permissions");
  }
  std::string token = trim(text.str());
  if (token.empty()) {
    if (loaded_) return token_;
    return make_error("token file " + path_.string() + ": empty; it must hold the bearer token");
  }
  token_ = std::move(token);
  mtime_ = mtime;
  size_ = size;
  loaded_ = true;
  return token_;
}

}  // namespace koordq::kube
