#include "schema/quantity.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace koordq::schema {
namespace {

using u128 = unsigned __int128;

constexpr int kMaxDigits = 38;
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
// Exponents read from the text are clamped here; no text of any realistic length carries enough
// digits to bring a clamped exponent back inside ±kExponentLimit, so the value is unaffected.
constexpr int64_t kExponentClamp = 1'000'000'000'000'000;

constexpr std::array<u128, kMaxDigits + 1> make_powers_of_ten() {
  std::array<u128, kMaxDigits + 1> powers{};
  powers[0] = 1;
  for (size_t i = 1; i < powers.size(); ++i) powers[i] = powers[i - 1] * 10;
  return powers;
}
constexpr auto kPowersOfTen = make_powers_of_ten();
constexpr u128 kCoefficientLimit = kPowersOfTen[kMaxDigits];

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

int digit_count(u128 v) {
  int n = 1;
  for (; v >= 10; v /= 10) ++n;
  return n;
}

std::string to_decimal(u128 v) {
  std::string out;
  do {
    out.push_back(static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  std::reverse(out.begin(), out.end());
  return out;
}

// Double quotes with Go-like escapes, so that error messages show whitespace and binary input.
std::string quoted(std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte >= 0x7f) {
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xf];
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

Error invalid(std::string_view text, const std::string& what) {
  return make_error("invalid quantity " + quoted(text) + ": " + what);
}

struct Lexed {
  bool negative = false;
  std::string_view integer;
  std::string_view fraction;
  std::string_view suffix;
};

std::string_view take_digits(std::string_view text, size_t& pos) {
  const size_t begin = pos;
  while (pos < text.size() && is_digit(text[pos])) ++pos;
  return text.substr(begin, pos - begin);
}

Result<Lexed> lex(std::string_view text) {
  if (text.empty()) return invalid(text, "empty");
  Lexed lexed;
  size_t pos = 0;
  if (text[0] == '+' || text[0] == '-') {
    lexed.negative = text[0] == '-';
    pos = 1;
  }
  lexed.integer = take_digits(text, pos);
  if (pos < text.size() && text[pos] == '.') lexed.fraction = take_digits(text, ++pos);
  lexed.suffix = text.substr(pos);
  if (lexed.integer.empty() && lexed.fraction.empty()) {
    return invalid(text, lexed.suffix.empty() ? "missing digits" : "missing digits before " + quoted(lexed.suffix));
  }
  return lexed;
}

// value = mantissa × 10^decimal_exponent × 2^binary_exponent
struct Scale {
  int64_t decimal_exponent = 0;
  int binary_exponent = 0;
};

std::optional<Scale> named_suffix(std::string_view suffix) {
  static constexpr std::array<std::pair<std::string_view, Scale>, 17> kSuffixes{{
      {"", {0, 0}},
      {"n", {-9, 0}},
      {"u", {-6, 0}},
      {"m", {-3, 0}},
      {"k", {3, 0}},
      {"M", {6, 0}},
      {"G", {9, 0}},
      {"T", {12, 0}},
      {"P", {15, 0}},
      {"E", {18, 0}},
      {"Ki", {0, 10}},
      {"Mi", {0, 20}},
      {"Gi", {0, 30}},
      {"Ti", {0, 40}},
      {"Pi", {0, 50}},
      {"Ei", {0, 60}},
  }};
  for (const auto& [name, scale] : kSuffixes) {
    if (name == suffix) return scale;
  }
  return std::nullopt;
}

// `E` alone is exa; `E` or `e` followed by a digit or a sign starts an exponent.
bool is_exponent(std::string_view suffix) {
  return suffix.size() >= 2 && (suffix[0] == 'e' || suffix[0] == 'E') &&
         (is_digit(suffix[1]) || suffix[1] == '+' || suffix[1] == '-');
}

Result<Scale> parse_exponent(std::string_view text, std::string_view suffix) {
  size_t pos = 1;
  const bool negative = suffix[pos] == '-';
  if (suffix[pos] == '+' || suffix[pos] == '-') ++pos;
  const std::string_view digits = take_digits(suffix, pos);
  if (digits.empty() || pos != suffix.size()) return invalid(text, "invalid exponent " + quoted(suffix));
  int64_t value = 0;
  for (char c : digits) value = std::min(value * 10 + (c - '0'), kExponentClamp);
  return Scale{negative ? -value : value, 0};
}

Result<Scale> interpret_suffix(std::string_view text, std::string_view suffix) {
  if (auto scale = named_suffix(suffix)) return *scale;
  if (is_exponent(suffix)) return parse_exponent(text, suffix);
  if (suffix[0] == '.') return invalid(text, "more than one decimal point");
  return invalid(text, "unknown suffix " + quoted(suffix));
}

// Multiplies a decimal digit string by 2^power (power <= 60) exactly, in place.
void multiply_by_power_of_two(std::string& digits, int power) {
  // carry < 2^power holds inductively, so digit × 2^power + carry < 10 × 2^60 < 2^64.
  uint64_t carry = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    const uint64_t v = (static_cast<uint64_t>(*it - '0') << power) + carry;
    *it = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  std::string head;
  for (; carry != 0; carry /= 10) head.push_back(static_cast<char>('0' + carry % 10));
  std::reverse(head.begin(), head.end());
  digits.insert(0, head);
}

struct Truncated {
  u128 coefficient = 0;
  int64_t exponent = 0;
  bool inexact_up = false;
};

// Keeps the first kMaxDigits significant digits of `digits` × 10^exponent.
Truncated truncate_digits(std::string_view digits, int64_t exponent) {
  const size_t first = std::min(digits.find_first_not_of('0'), digits.size());
  const std::string_view significant = digits.substr(first);
  const std::string_view kept = significant.substr(0, kMaxDigits);
  const std::string_view dropped = significant.substr(kept.size());
  Truncated t;
  for (char c : kept) t.coefficient = t.coefficient * 10 + static_cast<unsigned>(c - '0');
  t.exponent = exponent + static_cast<int64_t>(dropped.size());
  t.inexact_up = dropped.find_first_not_of('0') != std::string_view::npos;
  return t;
}

// ⌈coefficient × 10^shift⌉, plus one when the true value is a little above an integer; saturated.
int64_t ceil_scaled(u128 coefficient, int64_t shift, bool inexact_up) {
  constexpr u128 kMax = static_cast<u128>(kInt64Max);
  u128 whole = coefficient;
  bool fraction = inexact_up;
  if (shift >= 0) {
    // Stops as soon as the result is out of range, after at most 19 steps.
    for (int64_t i = 0; i < shift && whole != 0 && whole <= kMax; ++i) whole *= 10;
  } else if (shift < -kMaxDigits) {
    fraction = fraction || whole != 0;
    whole = 0;
  } else {
    const u128 divisor = kPowersOfTen[static_cast<size_t>(-shift)];
    fraction = fraction || whole % divisor != 0;
    whole /= divisor;
  }
  if (whole >= kMax) return kInt64Max;
  return static_cast<int64_t>(whole) + (fraction ? 1 : 0);
}

std::string format_decimal(const std::string& digits, int64_t exponent) {
  if (exponent >= 0 && exponent <= 20) return digits + std::string(static_cast<size_t>(exponent), '0');
  if (exponent < 0 && exponent >= -40) {
    const auto fraction_digits = static_cast<size_t>(-exponent);
    if (digits.size() > fraction_digits) {
      const size_t point = digits.size() - fraction_digits;
      return digits.substr(0, point) + "." + digits.substr(point);
    }
    return "0." + std::string(fraction_digits - digits.size(), '0') + digits;
  }
  return digits + "e" + std::to_string(exponent);
}

int sign_rank(const Quantity& q) {
  if (q.is_zero()) return 0;
  return q.negative() ? -1 : 1;
}

bool uses_binary_suffixes(std::string_view resource) {
  return resource == "memory" || resource == "ephemeral-storage" || resource == "storage" ||
         resource.starts_with("hugepages-");
}

std::string with_binary_suffix(int64_t amount) {
  static constexpr std::array<std::pair<const char*, int>, 6> kSuffixes{
      {{"Ei", 60}, {"Pi", 50}, {"Ti", 40}, {"Gi", 30}, {"Mi", 20}, {"Ki", 10}}};
  for (const auto& [suffix, shift] : kSuffixes) {
    const int64_t factor = int64_t{1} << shift;
    if (amount % factor == 0) return std::to_string(amount / factor) + suffix;
  }
  return std::to_string(amount);
}

}  // namespace

Result<Quantity> Quantity::parse(std::string_view text) {
  auto lexed = lex(text);
  if (!lexed) return lexed.error();
  auto scale = interpret_suffix(text, lexed->suffix);
  if (!scale) return scale.error();
  std::string digits;
  digits.reserve(lexed->integer.size() + lexed->fraction.size());
  digits.append(lexed->integer).append(lexed->fraction);
  if (scale->binary_exponent != 0) multiply_by_power_of_two(digits, scale->binary_exponent);
  const int64_t exponent = scale->decimal_exponent - static_cast<int64_t>(lexed->fraction.size());
  const Truncated t = truncate_digits(digits, exponent);
  return from_parts(lexed->negative, t.coefficient, t.exponent, t.inexact_up);
}

Quantity Quantity::from_parts(bool negative, u128 coefficient, int64_t exponent, bool inexact_up) {
  exponent = std::clamp(exponent, -kExponentClamp, kExponentClamp);
  for (; coefficient >= kCoefficientLimit; coefficient /= 10, ++exponent) {
    inexact_up = inexact_up || coefficient % 10 != 0;
  }
  if (coefficient == 0) return inexact_up ? infinitesimal(negative) : Quantity{};
  for (; coefficient % 10 == 0; coefficient /= 10) ++exponent;
  const int64_t leading = exponent + digit_count(coefficient) - 1;
  if (leading > kExponentLimit) return saturated(negative);
  if (leading < -kExponentLimit) return infinitesimal(negative);
  Quantity q;
  q.negative_ = negative;
  q.coefficient_ = coefficient;
  q.exponent_ = static_cast<int32_t>(exponent);
  q.inexact_up_ = inexact_up;
  return q;
}

Quantity Quantity::saturated(bool negative) {
  Quantity q;
  q.negative_ = negative;
  q.coefficient_ = kCoefficientLimit - 1;
  q.exponent_ = static_cast<int32_t>(kExponentLimit - (kMaxDigits - 1));
  q.inexact_up_ = true;
  return q;
}

Quantity Quantity::infinitesimal(bool negative) {
  Quantity q;
  q.negative_ = negative;
  q.inexact_up_ = true;
  return q;
}

std::string Quantity::render() const {
  if (is_zero()) return "0";
  const std::string sign = negative_ ? "-" : "";
  // Any value whose leading digit lies below the range parses back to the infinitesimal.
  if (coefficient_ == 0) return sign + "1e" + std::to_string(-kExponentLimit - 1);
  std::string digits = to_decimal(coefficient_);
  int64_t exponent = exponent_;
  if (inexact_up_) {
    // A non-zero digit just past the 38 kept ones is dropped again by parse and sets inexact_up.
    const size_t padding = kMaxDigits - digits.size();
    digits.append(padding, '0').push_back('1');
    exponent -= static_cast<int64_t>(padding) + 1;
  }
  return sign + format_decimal(digits, exponent);
}

int64_t Quantity::to_internal(std::string_view resource) const {
  if (negative_ || is_zero()) return 0;
  const int64_t shift = int64_t{exponent_} + (resource == "cpu" ? 3 : 0);
  return ceil_scaled(coefficient_, shift, inexact_up_);
}

std::strong_ordering Quantity::compare_magnitude(const Quantity& a, const Quantity& b) {
  if (a.coefficient_ == 0 || b.coefficient_ == 0) {
    if (a.coefficient_ != b.coefficient_)
      return a.coefficient_ == 0 ? std::strong_ordering::less : std::strong_ordering::greater;
    return a.inexact_up_ <=> b.inexact_up_;
  }
  const int a_digits = digit_count(a.coefficient_);
  const int b_digits = digit_count(b.coefficient_);
  if (auto c = a.exponent_ + a_digits <=> b.exponent_ + b_digits; c != 0) return c;
  // Same leading position and at most 38 digits each: aligning cannot overflow.
  u128 a_aligned = a.coefficient_;
  u128 b_aligned = b.coefficient_;
  if (a.exponent_ > b.exponent_) a_aligned *= kPowersOfTen[static_cast<size_t>(a.exponent_ - b.exponent_)];
  if (b.exponent_ > a.exponent_) b_aligned *= kPowersOfTen[static_cast<size_t>(b.exponent_ - a.exponent_)];
  if (a_aligned != b_aligned) return a_aligned < b_aligned ? std::strong_ordering::less : std::strong_ordering::greater;
  return a.inexact_up_ <=> b.inexact_up_;
}

std::strong_ordering operator<=>(const Quantity& a, const Quantity& b) {
  const int a_rank = sign_rank(a);
  const int b_rank = sign_rank(b);
  if (a_rank != b_rank) return a_rank <=> b_rank;
  if (a_rank == 0) return std::strong_ordering::equal;
  return a_rank > 0 ? Quantity::compare_magnitude(a, b) : Quantity::compare_magnitude(b, a);
}

bool operator==(const Quantity& a, const Quantity& b) {
  return a.negative_ == b.negative_ && a.coefficient_ == b.coefficient_ && a.exponent_ == b.exponent_ &&
         a.inexact_up_ == b.inexact_up_;
}

std::string render_internal_amount(std::string_view resource, int64_t amount) {
  if (amount == 0) return "0";
  if (resource == "cpu") return amount % 1000 == 0 ? std::to_string(amount / 1000) : std::to_string(amount) + "m";
  if (uses_binary_suffixes(resource)) return with_binary_suffix(amount);
  return std::to_string(amount);
}

}  // namespace koordq::schema
