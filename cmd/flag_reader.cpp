#include "cmd/flag_reader.hpp"

#include <charconv>

#include "base/decimal_ppm.hpp"
#include "base/go_duration.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {

std::optional<int64_t> parse_integer(std::string_view text) {
  const bool plus = text.starts_with('+');
  if (plus) text.remove_prefix(1);
  if (text.empty() || (plus && text.starts_with('-'))) return std::nullopt;
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<bool> parse_bool(std::string_view text) {
  for (std::string_view yes : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (text == yes) return true;
  }
  for (std::string_view no : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (text == no) return false;
  }
  return std::nullopt;
}

std::optional<std::string> FlagReader::next(std::string_view flag) const {
  if (error_) return std::nullopt;
  return flags_.value(flag);
}

void FlagReader::reject(std::string_view flag, std::string_view value, std::string_view requirement) {
  fail(invalid_value(command_, flag, value, requirement));
}

void FlagReader::fail(Error error) {
  if (!error_) error_ = std::move(error);
}

void FlagReader::text(std::string_view flag, std::string& out) {
  if (auto value = next(flag)) out = std::move(*value);
}

void FlagReader::non_empty_text(std::string_view flag, std::string& out) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  if (value->empty()) return reject(flag, *value, "must not be empty");
  out = *value;
}

void FlagReader::boolean(std::string_view flag, bool& out) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  const std::optional<bool> parsed = parse_bool(*value);
  if (!parsed) return reject(flag, *value, "must be true or false");
  out = *parsed;
}

void FlagReader::integer(std::string_view flag, int64_t& out, int64_t min, int64_t max) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  const std::optional<int64_t> parsed = parse_integer(*value);
  if (!parsed || *parsed < min || *parsed > max) {
    const std::string requirement =
        max == std::numeric_limits<int64_t>::max()
            ? "must be an integer >= " + std::to_string(min)
            : "must be an integer between " + std::to_string(min) + " and " + std::to_string(max);
    return reject(flag, *value, requirement);
  }
  out = *parsed;
}

void FlagReader::port(std::string_view flag, uint16_t& out) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  const std::optional<int64_t> parsed = parse_integer(*value);
  if (!parsed || *parsed < 0 || *parsed > 65535) {
    return reject(flag, *value, "must be a port between 0 and 65535 (0: any free port)");
  }
  out = static_cast<uint16_t>(*parsed);
}

void FlagReader::duration(std::string_view flag, int64_t& out_nanos, DurationBound bound) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  const Result<int64_t> parsed = base::parse_go_duration(*value);
  const bool positive = bound == DurationBound::positive;
  if (!parsed.ok() || *parsed < 0 || (positive && *parsed == 0)) {
    return reject(
        flag, *value,
        std::string("must be a Go duration ") + (positive ? "> 0" : ">= 0") + " such as 300ms, 1.5s or 2h45m");
  }
  out_nanos = *parsed;
}

void FlagReader::positive_decimal_ppm(std::string_view flag, int64_t& out_ppm) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  const Result<int64_t> parsed = base::parse_decimal_ppm(*value);
  if (!parsed.ok() || *parsed <= 0) {
    return reject(flag, *value, "must be a decimal > 0 with at most 6 fractional digits, such as 1 or 1.25");
  }
  out_ppm = *parsed;
}

void FlagReader::positive_byte_size(std::string_view flag, int64_t& out_bytes) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  const Result<int64_t> parsed = base::parse_byte_size(*value);
  if (!parsed.ok() || *parsed <= 0) {
    return reject(flag, *value,
                  "must be a size > 0 such as 500MB or 20GiB (units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB)");
  }
  out_bytes = *parsed;
}

void FlagReader::positive_retention(std::string_view flag, base::Retention& out) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  const Result<base::Retention> parsed = base::parse_retention(*value);
  if (!parsed.ok() || parsed->value <= 0) {
    return reject(flag, *value, "must be an age > 0 such as 30d or 720h, or a size > 0 such as 20GiB");
  }
  out = *parsed;
}

void FlagReader::when(std::string_view flag, std::optional<When>& out) {
  const std::optional<std::string> value = next(flag);
  if (!value) return;
  Result<When> parsed = parse_when(*value);
  if (!parsed.ok()) return reject(flag, *value, parsed.message());
  out = std::move(parsed).value();
}

}  // namespace koordq::cmd
