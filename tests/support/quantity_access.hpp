// Test-only access to Quantity's representation, for generators and white-box checks.
#pragma once

#include <cstdint>
#include <ostream>

#include "schema/quantity.hpp"

namespace koordq::schema {

struct QuantityAccess {
  // Normalizes like parse does, so any arguments give a valid Quantity.
  static Quantity make(bool negative, unsigned __int128 coefficient, int64_t exponent, bool inexact_up) {
    return Quantity::from_parts(negative, coefficient, exponent, inexact_up);
  }
  static Quantity saturated(bool negative) { return Quantity::saturated(negative); }
  static Quantity infinitesimal(bool negative) { return Quantity::infinitesimal(negative); }
  static bool inexact_up(const Quantity& q) { return q.inexact_up_; }
};

// Lets GoogleTest and rapidcheck print a Quantity as its rendering.
inline void PrintTo(const Quantity& q, std::ostream* os) {
  *os << q.render();
}
inline std::ostream& operator<<(std::ostream& os, const Quantity& q) {
  return os << q.render();
}

}  // namespace koordq::schema
