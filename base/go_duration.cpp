#include "base/go_duration.hpp"

#include <limits>

#include "base/text.hpp"

namespace koordq::base {
namespace {

// Magnitudes are accumulated unsigned so that -9223372036854775808ns stays representable.
constexpr uint64_t kMagnitudeLimit = uint64_t{1} << 63;

struct Unit {
  std::string_view name;
  uint64_t nanos;
};

constexpr Unit kUnits[] = {
    {"ns", kNanosecond},
    {"us", kMicrosecond},
    {"\xC2\xB5s", kMicrosecond},  // U+00B5 MICRO SIGN
    {"\xCE\xBCs", kMicrosecond},  // U+03BC GREEK SMALL LETTER MU
    {"ms", kMillisecond},
    {"s", kSecond},
    {"m", kMinute},
    {"h", kHour},
};

Error invalid(std::string_view text) {
  return make_error("invalid duration " + quoted(text));
}
Error out_of_range(std::string_view text) {
  return make_error("duration " + quoted(text) + " is out of range");
}

const Unit* find_unit(std::string_view name, bool allow_days) {
  static constexpr Unit kDayUnit{"d", kDay};
  if (allow_days && name == kDayUnit.name) return &kDayUnit;
  for (const Unit& unit : kUnits) {
    if (unit.name == name) return &unit;
  }
  return nullptr;
}

// ⌊0.<digits> × unit⌋, exactly: long multiplication of the decimal fraction from its last digit.
// The carry stays below 10 × unit, far inside uint64 for every unit.
uint64_t fraction_nanos(std::string_view digits, uint64_t unit) {
  uint64_t carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    carry = (static_cast<uint64_t>(*it - '0') * unit + carry) / 10;
  }
  return carry;
}

Result<int64_t> parse(std::string_view text, bool allow_days) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return int64_t{0};
  if (s.empty()) return invalid(text);

  uint64_t total = 0;
  while (!s.empty()) {
    if (!(s.front() == '.' || is_ascii_digit(s.front()))) return invalid(text);

    uint64_t whole = 0;
    size_t i = 0;
    for (; i < s.size() && is_ascii_digit(s[i]); ++i) {
      if (whole > kMagnitudeLimit / 10) return out_of_range(text);
      whole = whole * 10 + static_cast<uint64_t>(s[i] - '0');
      if (whole > kMagnitudeLimit) return out_of_range(text);
    }
    const bool has_whole_digits = i > 0;
    s.remove_prefix(i);

    std::string_view fraction;
    if (!s.empty() && s.front() == '.') {
      s.remove_prefix(1);
      size_t n = 0;
      while (n < s.size() && is_ascii_digit(s[n])) ++n;
      fraction = s.substr(0, n);
      s.remove_prefix(n);
    }
    if (!has_whole_digits && fraction.empty()) return invalid(text);

    size_t unit_length = 0;
    while (unit_length < s.size() && s[unit_length] != '.' && !is_ascii_digit(s[unit_length])) ++unit_length;
    if (unit_length == 0) return make_error("missing unit in duration " + quoted(text));
    const std::string_view unit_name = s.substr(0, unit_length);
    s.remove_prefix(unit_length);
    const Unit* unit = find_unit(unit_name, allow_days);
    if (unit == nullptr) {
      return make_error("unknown unit " + quoted(unit_name) + " in duration " + quoted(text));
    }

    if (whole > kMagnitudeLimit / unit->nanos) return out_of_range(text);
    const uint64_t term = whole * unit->nanos + fraction_nanos(fraction, unit->nanos);
    if (term > kMagnitudeLimit || total > kMagnitudeLimit - term) return out_of_range(text);
    total += term;
  }

  if (negative) {
    if (total == kMagnitudeLimit) return std::numeric_limits<int64_t>::min();
    return -static_cast<int64_t>(total);
  }
  if (total == kMagnitudeLimit) return out_of_range(text);
  return static_cast<int64_t>(total);
}

// Writes v / 10^precision's fraction (without trailing zeros, and without the point when it is
// zero) before `end`; returns the new start and v / 10^precision.
char* write_fraction(char* end, uint64_t& v, int precision) {
  bool print = false;
  for (int i = 0; i < precision; ++i) {
    const auto digit = static_cast<char>(v % 10);
    print = print || digit != 0;
    if (print) *--end = static_cast<char>('0' + digit);
    v /= 10;
  }
  if (print) *--end = '.';
  return end;
}

char* write_integer(char* end, uint64_t v) {
  do {
    *--end = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v > 0);
  return end;
}

}  // namespace

Result<int64_t> parse_go_duration(std::string_view text) {
  return parse(text, false);
}

Result<int64_t> parse_go_duration_with_days(std::string_view text) {
  return parse(text, true);
}

std::string format_go_duration(int64_t nanos) {
  char buffer[32];
  char* const end = buffer + sizeof buffer;
  char* w = end;
  uint64_t u = static_cast<uint64_t>(nanos);
  const bool negative = nanos < 0;
  if (negative) u = 0 - u;

  if (u < static_cast<uint64_t>(kSecond)) {
    *--w = 's';
    int precision = 0;
    if (u == 0) {
      *--w = '0';
      return std::string(w, end);
    } else if (u < static_cast<uint64_t>(kMicrosecond)) {
      *--w = 'n';
    } else if (u < static_cast<uint64_t>(kMillisecond)) {
      precision = 3;
      *--w = '\xB5';  // U+00B5, as Go writes it
      *--w = '\xC2';
    } else {
      precision = 6;
      *--w = 'm';
    }
    w = write_fraction(w, u, precision);
    w = write_integer(w, u);
  } else {
    *--w = 's';
    w = write_fraction(w, u, 9);
    w = write_integer(w, u % 60);
    u /= 60;
    if (u > 0) {
      *--w = 'm';
      w = write_integer(w, u % 60);
      u /= 60;
      if (u > 0) {
        *--w = 'h';
        w = write_integer(w, u);
      }
    }
  }
  if (negative) *--w = '-';
  return std::string(w, end);
}

}  // namespace koordq::base
