#include "base/decimal_ppm.hpp"

#include "base/text.hpp"

namespace koordq::base {
namespace {

constexpr int kFractionDigits = 6;

Error invalid(std::string_view text, std::string_view why) {
  return make_error("invalid decimal \"" + std::string(text) + "\": " + std::string(why));
}

}  // namespace

Result<int64_t> parse_decimal_ppm(std::string_view text) {
  const size_t point = text.find('.');
  const std::string_view whole = text.substr(0, point);
  const std::string_view fraction = point == std::string_view::npos ? std::string_view{} : text.substr(point + 1);
  if (whole.empty() && fraction.empty()) return invalid(text, "expected digits");
  for (char c : whole) {
    if (!is_ascii_digit(c)) return invalid(text, "expected <digits>[.<digits>]");
  }
  for (char c : fraction) {
    if (!is_ascii_digit(c)) return invalid(text, "expected <digits>[.<digits>]");
  }
  if (fraction.size() > kFractionDigits) return invalid(text, "more than 6 fractional digits");

  int64_t ppm = 0;
  for (char c : whole) {
    if (__builtin_mul_overflow(ppm, 10, &ppm) || __builtin_add_overflow(ppm, c - '0', &ppm)) {
      return invalid(text, "out of range");
    }
  }
  if (__builtin_mul_overflow(ppm, kPartsPerMillion, &ppm)) return invalid(text, "out of range");
  int64_t fraction_ppm = 0;
  int64_t scale = kPartsPerMillion / 10;
  for (char c : fraction) {
    fraction_ppm += (c - '0') * scale;
    scale /= 10;
  }
  if (__builtin_add_overflow(ppm, fraction_ppm, &ppm)) return invalid(text, "out of range");
  return ppm;
}

std::string format_decimal_ppm(int64_t ppm) {
  const bool negative = ppm < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(ppm) : static_cast<uint64_t>(ppm);
  std::string text = (negative ? "-" : "") + std::to_string(magnitude / kPartsPerMillion);
  const uint64_t fraction = magnitude % kPartsPerMillion;
  if (fraction == 0) return text;
  std::string digits = std::to_string(fraction);
  digits.insert(0, kFractionDigits - digits.size(), '0');
  while (digits.back() == '0') digits.pop_back();
  return text + "." + digits;
}

}  // namespace koordq::base
