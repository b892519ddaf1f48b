#include "base/byte_size.hpp"

#include <limits>

#include "base/go_duration.hpp"
#include "base/text.hpp"

namespace koordq::base {
namespace {

struct SizeUnit {
  std::string_view name;
  int64_t bytes;
};

constexpr int64_t kKiB = int64_t{1} << 10;
constexpr int64_t kKB = 1000;

// Binary units first so that format_byte_size prefers them.
constexpr SizeUnit kSizeUnits[] = {
    {"TiB", kKiB* kKiB* kKiB* kKiB},
    {"GiB", kKiB* kKiB* kKiB},
    {"MiB", kKiB* kKiB},
    {"KiB", kKiB},
    {"TB", kKB* kKB* kKB* kKB},
    {"GB", kKB* kKB* kKB},
    {"MB", kKB* kKB},
    {"KB", kKB},
    {"B", 1},
};

}  // namespace

Result<int64_t> parse_byte_size(std::string_view text) {
  size_t digits = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
  if (digits == 0) return make_error("invalid size " + quoted(text) + ": expected <integer><unit>");
  const std::string_view unit_name = text.substr(digits);
  if (unit_name.empty()) return make_error("missing unit in size " + quoted(text));

  const SizeUnit* unit = nullptr;
  for (const SizeUnit& candidate : kSizeUnits) {
    if (candidate.name == unit_name) unit = &candidate;
  }
  if (unit == nullptr) return make_error("unknown unit " + quoted(unit_name) + " in size " + quoted(text));

  int64_t count = 0;
  for (size_t i = 0; i < digits; ++i) {
    if (__builtin_mul_overflow(count, 10, &count) || __builtin_add_overflow(count, text[i] - '0', &count)) {
      return make_error("size " + quoted(text) + " is out of range");
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(count, unit->bytes, &bytes)) {
    return make_error("size " + quoted(text) + " is out of range");
  }
  return bytes;
}

std::string format_byte_size(int64_t bytes) {
  for (const SizeUnit& unit : kSizeUnits) {
    if (bytes != 0 && bytes % unit.bytes == 0) return std::to_string(bytes / unit.bytes) + std::string(unit.name);
  }
  return std::to_string(bytes) + "B";
}

Result<Retention> parse_retention(std::string_view text) {
  if (auto size = parse_byte_size(text); size.ok()) return Retention{Retention::Kind::size, *size};
  auto age = parse_go_duration_with_days(text);
  if (!age.ok()) {
    return make_error("invalid retention " + quoted(text) + ": expected an age such as 30d or a size such as 20GiB");
  }
  return Retention{Retention::Kind::age, *age};
}

std::string format_retention(const Retention& retention) {
  return retention.kind == Retention::Kind::age ? format_go_duration(retention.value)
                                                : format_byte_size(retention.value);
}

}  // namespace koordq::base
