// Kubernetes quantities (behaviour.md §3): exact decimal parsing, the conversion
// to koordq's internal integers, and rendering. No binary floating point anywhere.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace koordq::schema {

// An exact decimal value: (negative ? -1 : 1) × coefficient × 10^exponent, normalized so that
// equal values compare equal. Parsing keeps up to 38 significant digits; digits dropped beyond
// that are remembered in `inexact_up` (the true magnitude is slightly larger), which is what the
// ceiling of §3.1 needs. Magnitudes beyond what the representation holds saturate.
class Quantity {
 public:
  // The leading digit of a non-zero value sits between 10^-kExponentLimit and 10^kExponentLimit.
  // Larger magnitudes saturate to the largest one (marked inexact_up, so it compares above every
  // exact value); smaller non-zero ones become an infinitesimal: coefficient 0 with inexact_up,
  // above zero and below every other positive value (mirrored for negative values).
  static constexpr int64_t kExponentLimit = 1'000'000'000;

  Quantity() = default;

  // Parses `[+-]<digits>[.<digits>]<suffix>` with the suffixes of §3.1.
  static Result<Quantity> parse(std::string_view text);

  // A canonical rendering: Quantity::parse(q.render()) == q.
  std::string render() const;

  // §3.1: cpu → ⌈value × 1000⌉ (millicores), any other resource → ⌈value⌉;
  // negative → 0; saturates at 2^63 − 1.
  int64_t to_internal(std::string_view resource) const;

  bool negative() const { return negative_; }
  bool is_zero() const { return coefficient_ == 0 && !inexact_up_; }

  friend std::strong_ordering operator<=>(const Quantity& a, const Quantity& b);
  friend bool operator==(const Quantity& a, const Quantity& b);

 private:
  // Normalizes any value: at most 38 digits, no trailing zeros, zero without sign, range limits.
  static Quantity from_parts(bool negative, unsigned __int128 coefficient, int64_t exponent, bool inexact_up);
  static Quantity saturated(bool negative);
  static Quantity infinitesimal(bool negative);
  static std::strong_ordering compare_magnitude(const Quantity& a, const Quantity& b);

  bool negative_ = false;
  unsigned __int128 coefficient_ = 0;
  int32_t exponent_ = 0;
  bool inexact_up_ = false;

  friend struct QuantityAccess;  // tests and generators
};

// §3.2: computed amounts from internal integers: cpu → cores or `<n>m`; memory,
// ephemeral-storage, storage, hugepages-* → the largest binary suffix that divides exactly;
// anything else → plain digits.
std::string render_internal_amount(std::string_view resource, int64_t amount);

}  // namespace koordq::schema
