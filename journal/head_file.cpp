#include "journal/head_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <unistd.h>

#include "journal/signed_statements.hpp"

namespace koordq::journal {
namespace {

Error os_error(const std::string& what, const std::filesystem::path& path) {
  return make_error(what + " " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

Result<std::optional<ChainHead>> read_head_file(const std::filesystem::path& path,
                                                std::optional<Signature>* signature) {
  if (signature != nullptr) signature->reset();
  std::ifstream in(path);
  if (!in) {
    if (!std::filesystem::exists(path)) return std::optional<ChainHead>{};
    return os_error("cannot read", path);
  }
  std::string line;
  std::getline(in, line);
  std::istringstream fields(line);
  std::string seq_text, hash_text, extra;
  fields >> seq_text >> hash_text >> extra;
  ChainHead head;
  char* end = nullptr;
  errno = 0;
  head.seq = std::strtoull(seq_text.c_str(), &end, 10);
  if (seq_text.empty() || *end != '\0' || errno != 0 || !from_hex(hash_text, head.hash) || !extra.empty()) {
    return make_error("malformed HEAD file " + path.string() + ": expected \"<seq> <64 hex digits>\", got \"" +
                      line.substr(0, 200) + "\"");
  }
  std::string signature_line;
  if (std::getline(in, signature_line) && !signature_line.empty()) {
    constexpr std::string_view kPrefix = "signature ";
    auto parsed = signature_line.starts_with(kPrefix)
                      ? parse_signature(std::string_view(signature_line).substr(kPrefix.size()))
                      : std::nullopt;
    if (!parsed) {
      return make_error("malformed HEAD file " + path.string() +
                        ": expected a second line \"signature <key id> <base64>\", got \"" +
                        signature_line.substr(0, 200) + "\"");
    }
    if (signature != nullptr) *signature = std::move(parsed);
  }
  return std::optional<ChainHead>{head};
}

Status write_head_file(const std::filesystem::path& path, const ChainHead& head,
                       const std::optional<Signature>& signature) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  std::string content = std::to_string(head.seq) + " " + to_hex(head.hash) + "\n";
  if (signature) content += "signature " + render_signature(*signature) + "\n";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return os_error("cannot create", tmp);
  size_t written = 0;
  while (written < content.size()) {
    const ssize_t n = ::write(fd, content.data() + written, content.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      auto err = os_error("cannot write", tmp);
      ::close(fd);
      return err;
    }
    written += static_cast<size_t>(n);
  }
  if (::fdatasync(fd) != 0) {
    auto err = os_error("cannot sync", tmp);
    ::close(fd);
    return err;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) return os_error("cannot rename onto", path);
  return ok_status();
}

}  // namespace koordq::journal
