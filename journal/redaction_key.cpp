#include "journal/redaction_key.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fcntl.h>
#include <openssl/rand.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/hex.hpp"
#include "schema/raw_object.hpp"

namespace koordq::journal {
namespace {

constexpr size_t kKeyBytes = schema::kRedactionKeyBytes;

Result<std::string> read_key(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::string text;
  if (!in || !std::getline(in, text)) return make_error("cannot read the redaction key " + file.string());
  const std::optional<std::string> key = base::hex_decode(text);
  if (!key || key->size() != kKeyBytes) {
    return make_error("the redaction key " + file.string() + " is not " + std::to_string(kKeyBytes * 2) +
                      " lowercase hex digits; delete it to start a new one (later markers then differ from earlier "
                      "ones of the same values)");
  }
  return *key;
}

}  // namespace

Result<std::string> load_or_create_redaction_key(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / kRedactionKeyFile;
  std::error_code ec;
  if (std::filesystem::exists(file, ec)) return read_key(file);
  unsigned char bytes[kKeyBytes];
  if (RAND_bytes(bytes, sizeof bytes) != 1) return make_error("no randomness from OpenSSL for the redaction key");
  // Written whole under another name, then linked: a crash never leaves a partial key behind.
  const std::filesystem::path draft = dir / (std::string(kRedactionKeyFile) + ".new");
  const int fd = ::open(draft.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return make_error("cannot create the redaction key " + draft.string() + ": " + std::strerror(errno));
  const std::string text =
      base::hex_encode(std::string_view(reinterpret_cast<const char*>(bytes), sizeof bytes)) + "\n";
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  const int write_errno = errno;
  ::close(fd);
  if (!written) {
    ::unlink(draft.c_str());
    return make_error("cannot write the redaction key " + draft.string() + ": " + std::strerror(write_errno));
  }
  const bool linked = ::link(draft.c_str(), file.c_str()) == 0;
  const int link_errno = errno;
  ::unlink(draft.c_str());
  if (!linked) {
    if (link_errno == EEXIST) return read_key(file);  // another process made it first
    return make_error("cannot create the redaction key " + file.string() + ": " + std::strerror(link_errno));
  }
  return std::string(reinterpret_cast<const char*>(bytes), sizeof bytes);
}

}  // namespace koordq::journal
