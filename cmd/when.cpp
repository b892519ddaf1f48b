#include "cmd/when.hpp"

#include "base/rfc3339.hpp"

namespace koordq::cmd {
namespace {

constexpr std::string_view kRevisionPrefix = "rev:";

}  // namespace

Result<When> parse_when(std::string_view text) {
  if (text.starts_with(kRevisionPrefix)) {
    const std::string_view digits = text.substr(kRevisionPrefix.size());
    uint64_t revision = 0;
    bool valid = !digits.empty();
    for (char c : digits) {
      if (c < '0' || c > '9' || __builtin_mul_overflow(revision, uint64_t{10}, &revision) ||
          __builtin_add_overflow(revision, static_cast<uint64_t>(c - '0'), &revision)) {
        valid = false;
        break;
      }
    }
    if (!valid || revision == 0) return make_error("must be rev:N with N an integer >= 1");
    return When{When::Kind::revision, 0, revision, std::string(text)};
  }
  auto time = base::parse_rfc3339(text);
  if (!time.ok()) {
    return make_error("must be an RFC3339 time such as 2026-04-20T10:00:00Z (fraction and offset allowed) or rev:N");
  }
  return When{When::Kind::time, *time, 0, std::string(text)};
}

}  // namespace koordq::cmd
