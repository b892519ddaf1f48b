#include "base/rfc3339.hpp"

#include <limits>

namespace koordq::base {
namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void civil_from_days(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

bool is_leap(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

unsigned days_in_month(int64_t y, unsigned m) {
  static constexpr unsigned kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && is_leap(y) ? 29 : kDays[m - 1];
}

class Cursor {
 public:
  explicit Cursor(std::string_view s) : s_(s) {}
  bool digits(size_t n, int64_t& out) {
    if (pos_ + n > s_.size()) return false;
    int64_t v = 0;
    for (size_t i = 0; i < n; ++i) {
      const char c = s_[pos_ + i];
      if (c < '0' || c > '9') return false;
      v = v * 10 + (c - '0');
    }
    pos_ += n;
    out = v;
    return true;
  }
  bool literal(char c) {
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool literal_ci(char c) { return literal(c) || literal(static_cast<char>(c + ('a' - 'A'))); }
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool peek_digit() const { return pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9'; }
  bool at_end() const { return pos_ == s_.size(); }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

Error invalid(std::string_view text, const char* why) {
  return make_error("invalid RFC 3339 time \"" + std::string(text) + "\": " + why);
}

std::string format(int64_t unix_nanos, bool millis) {
  int64_t secs = unix_nanos / 1'000'000'000;
  int64_t rem = unix_nanos % 1'000'000'000;
  if (rem < 0) {
    rem += 1'000'000'000;
    secs -= 1;
  }
  int64_t days = secs / 86400;
  int64_t sod = secs % 86400;
  if (sod < 0) {
    sod += 86400;
    days -= 1;
  }
  int64_t y;
  unsigned m, d;
  civil_from_days(days, y, m, d);
  char buf[48];
  const int h = static_cast<int>(sod / 3600), mi = static_cast<int>(sod / 60 % 60), s = static_cast<int>(sod % 60);
  // Digit by digit (snprintf costs more than the rest of a summary item); int64 nanoseconds span
  // the years 1677 to 2262, always four digits.
  const auto two = [](char* at, unsigned v) {
    at[0] = static_cast<char>('0' + v / 10);
    at[1] = static_cast<char>('0' + v % 10);
  };
  two(buf, static_cast<unsigned>(y / 100));
  two(buf + 2, static_cast<unsigned>(y % 100));
  buf[4] = '-';
  two(buf + 5, m);
  buf[7] = '-';
  two(buf + 8, d);
  buf[10] = 'T';
  two(buf + 11, static_cast<unsigned>(h));
  buf[13] = ':';
  two(buf + 14, static_cast<unsigned>(mi));
  buf[16] = ':';
  two(buf + 17, static_cast<unsigned>(s));
  size_t n = 19;
  if (millis) {
    const auto ms = static_cast<unsigned>(rem / 1'000'000);
    buf[n++] = '.';
    buf[n++] = static_cast<char>('0' + ms / 100);
    two(buf + n, ms % 100);
    n += 2;
  }
  buf[n++] = 'Z';
  return std::string(buf, n);
}

}  // namespace

Result<int64_t> parse_rfc3339(std::string_view text) {
  Cursor c(text);
  int64_t year, month, day, hour, minute, second;
  if (!c.digits(4, year) || !c.literal('-') || !c.digits(2, month) || !c.literal('-') || !c.digits(2, day)) {
    return invalid(text, "expected YYYY-MM-DD");
  }
  if (!c.literal_ci('T')) return invalid(text, "expected 'T' after the date");
  if (!c.digits(2, hour) || !c.literal(':') || !c.digits(2, minute) || !c.literal(':') || !c.digits(2, second)) {
    return invalid(text, "expected hh:mm:ss");
  }
  if (month < 1 || month > 12) return invalid(text, "month out of range");
  if (day < 1 || day > days_in_month(year, static_cast<unsigned>(month))) return invalid(text, "day out of range");
  if (hour > 23 || minute > 59 || second > 59) return invalid(text, "time of day out of range");
  int64_t nanos = 0;
  if (c.literal('.')) {
    if (!c.peek_digit()) return invalid(text, "expected digits after '.'");
    int64_t scale = 100'000'000;
    int count = 0;
    while (c.peek_digit()) {
      int64_t digit;
      c.digits(1, digit);
      if (++count > 9) return invalid(text, "more than 9 fraction digits");
      nanos += digit * scale;
      scale /= 10;
    }
  }
  int64_t offset_seconds = 0;
  if (c.literal_ci('Z')) {
  } else if (c.peek() == '+' || c.peek() == '-') {
    const bool negative = c.peek() == '-';
    c.literal(c.peek());
    int64_t oh, om;
    if (!c.digits(2, oh) || !c.literal(':') || !c.digits(2, om) || oh > 23 || om > 59) {
      return invalid(text, "expected a zone offset ±hh:mm");
    }
    offset_seconds = (oh * 3600 + om * 60) * (negative ? -1 : 1);
  } else {
    return invalid(text, "expected 'Z' or a zone offset");
  }
  if (!c.at_end()) return invalid(text, "unexpected characters after the zone");

  const int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  // int64 nanoseconds cover 1677-09-21 .. 2262-04-11.
  constexpr int64_t kMaxSecs = std::numeric_limits<int64_t>::max() / 1'000'000'000 - 1;
  if (secs > kMaxSecs || secs < -kMaxSecs) return invalid(text, "outside the years 1678..2262");
  return secs * 1'000'000'000 + nanos;
}

std::string format_rfc3339_seconds(int64_t unix_nanos) {
  return format(unix_nanos, false);
}
std::string format_rfc3339_millis(int64_t unix_nanos) {
  return format(unix_nanos, true);
}

}  // namespace koordq::base
