// Invariants of quantities and resource vectors (behaviour.md §3), one per property.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "schema/quantity.hpp"
#include "schema/resource_list.hpp"
#include "tests/support/quantity_access.hpp"

namespace koordq::schema {
namespace KOORDQ_TEST_LOCAL {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kLimit = Quantity::kExponentLimit;

rc::Gen<std::string> digits(int min_length, int max_length) {
  return rc::gen::mapcat(rc::gen::inRange(min_length, max_length + 1), [](int length) {
    return rc::gen::container<std::string>(static_cast<size_t>(length),
                                           rc::gen::inRange('0', static_cast<char>('9' + 1)));
  });
}

rc::Gen<int64_t> exponents() {
  return rc::gen::weightedOneOf<int64_t>({
      {8, rc::gen::inRange<int64_t>(-45, 45)},
      {1, rc::gen::inRange<int64_t>(kLimit - 40, kLimit + 3)},
      {1, rc::gen::inRange<int64_t>(-kLimit - 40, -kLimit + 3)},
  });
}

// Any normalized value, including inexact, saturated and infinitesimal ones.
rc::Gen<Quantity> quantities_from_parts() {
  return rc::gen::apply(
      [](bool negative, const std::string& coefficient_digits, int64_t exponent, bool inexact_up) {
        unsigned __int128 coefficient = 0;
        for (char c : coefficient_digits) coefficient = coefficient * 10 + static_cast<unsigned>(c - '0');
        return QuantityAccess::make(negative, coefficient, exponent, inexact_up);
      },
      rc::gen::arbitrary<bool>(), digits(0, 38), exponents(), rc::gen::arbitrary<bool>());
}

rc::Gen<std::string> quantity_texts() {
  static const std::vector<std::string> kSuffixes = {"",   "n",   "u",    "m",   "k",   "M",    "G",         "T",  "P",
                                                     "E",  "Ki",  "Mi",   "Gi",  "Ti",  "Pi",   "Ei",        "e0", "e3",
                                                     "E6", "e-3", "e-12", "e+2", "e25", "e-40", "e999999999"};
  return rc::gen::apply(
      [](const std::string& sign, const std::string& integer, bool point, const std::string& fraction,
         const std::string& suffix) {
        std::string text = sign + integer;
        if (point) text += "." + fraction;
        if (integer.empty() && (!point || fraction.empty())) text += "0";
        return text + suffix;
      },
      rc::gen::element<std::string>("", "+", "-"), digits(0, 24), rc::gen::arbitrary<bool>(), digits(0, 24),
      rc::gen::elementOf(kSuffixes));
}

Quantity parsed(const std::string& text) {
  auto result = Quantity::parse(text);
  RC_ASSERT(result.ok());
  return *result;
}

rc::Gen<Quantity> quantities() {
  return rc::gen::weightedOneOf<Quantity>({
      {3, quantities_from_parts()},
      {3, rc::gen::map(quantity_texts(), parsed)},
      {1, rc::gen::element(Quantity{}, QuantityAccess::saturated(false), QuantityAccess::saturated(true),
                           QuantityAccess::infinitesimal(false), QuantityAccess::infinitesimal(true))},
  });
}

rc::Gen<int64_t> amounts() {
  return rc::gen::weightedOneOf<int64_t>({{2, rc::gen::just<int64_t>(0)},
                                          {3, rc::gen::inRange<int64_t>(1, 10000)},
                                          {1, rc::gen::inRange<int64_t>(kMax - 10000, kMax)},
                                          {1, rc::gen::just(kMax)}});
}

// Vectors over a few shared resource names, so that operands overlap; zero entries are absent.
rc::Gen<ResourceVector> resource_vectors() {
  return rc::gen::apply(
      [](int64_t cpu, int64_t memory, int64_t pods, int64_t gpu) {
        ResourceVector v{{"cpu", cpu}, {"memory", memory}, {"pods", pods}, {"nvidia.com/gpu", gpu}};
        for (auto it = v.begin(); it != v.end();) it = it->second == 0 ? v.erase(it) : std::next(it);
        return v;
      },
      amounts(), amounts(), amounts(), amounts());
}

bool all_positive(const ResourceVector& v) {
  return std::all_of(v.begin(), v.end(), [](const auto& entry) { return entry.second > 0; });
}

int64_t amount(const ResourceVector& v, const std::string& resource) {
  const auto it = v.find(resource);
  return it == v.end() ? 0 : it->second;
}

RC_GTEST_PROP(QuantityProperty, parse_of_render_gives_back_the_same_quantity, ()) {
  const Quantity q = *quantities();
  RC_ASSERT(parsed(q.render()) == q);
}

RC_GTEST_PROP(QuantityProperty, render_is_canonical_for_every_spelling_of_a_value, ()) {
  const Quantity q = parsed(*quantity_texts());
  RC_ASSERT(parsed(q.render()).render() == q.render());
}

RC_GTEST_PROP(QuantityProperty, a_smaller_quantity_never_converts_to_a_larger_integer, ()) {
  const Quantity a = *quantities();
  const Quantity b = *quantities();
  if (a < b) {
    RC_ASSERT(a.to_internal("cpu") <= b.to_internal("cpu"));
    RC_ASSERT(a.to_internal("memory") <= b.to_internal("memory"));
  }
}

RC_GTEST_PROP(QuantityProperty, comparison_is_antisymmetric_and_agrees_with_equality, ()) {
  const Quantity a = *quantities();
  const Quantity b = *rc::gen::oneOf(quantities(), rc::gen::just(a));
  RC_ASSERT((a <=> b) == (0 <=> (b <=> a)));
  RC_ASSERT((a == b) == ((a <=> b) == 0));
}

RC_GTEST_PROP(QuantityProperty, comparison_is_transitive, ()) {
  const std::vector<Quantity> samples = {*quantities(), *quantities(), *quantities()};
  for (const auto& a : samples) {
    for (const auto& b : samples) {
      for (const auto& c : samples) RC_ASSERT(!(a <= b && b <= c) || a <= c);
    }
  }
}

RC_GTEST_PROP(QuantityProperty, to_internal_is_never_negative, ()) {
  const Quantity q = *quantities();
  RC_ASSERT(q.to_internal("cpu") >= 0);
  RC_ASSERT(q.to_internal("memory") >= 0);
}

RC_GTEST_PROP(QuantityProperty, cpu_millicores_are_at_least_the_whole_units, ()) {
  const Quantity q = *quantities();
  RC_ASSERT(q.to_internal("cpu") >= q.to_internal("memory"));
}

RC_GTEST_PROP(QuantityProperty, plain_integers_convert_exactly, (int64_t n)) {
  RC_PRE(n >= 0);
  const Quantity q = parsed(std::to_string(n));
  RC_ASSERT(q.to_internal("memory") == n);
  RC_ASSERT(q.to_internal("cpu") == (n > kMax / 1000 ? kMax : n * 1000));
}

RC_GTEST_PROP(QuantityProperty, negating_a_value_never_makes_it_larger, ()) {
  const Quantity q = *quantities();
  RC_PRE(!q.negative());
  const Quantity negated = parsed("-" + q.render());
  RC_ASSERT(negated <= q);
  RC_ASSERT(negated.is_zero() == q.is_zero());
}

RC_GTEST_PROP(QuantityProperty, decimal_suffixes_equal_their_exponents, ()) {
  const std::string number = *digits(1, 30) + "." + *digits(0, 30);
  RC_ASSERT(parsed(number + "k") == parsed(number + "e3"));
  RC_ASSERT(parsed(number + "m") == parsed(number + "e-3"));
  RC_ASSERT(parsed(number + "E") == parsed(number + "e18"));
}

RC_GTEST_PROP(QuantityProperty, binary_suffixes_equal_the_multiplied_integer, ()) {
  const int64_t n = *rc::gen::inRange<int64_t>(0, int64_t{1} << 20);
  RC_ASSERT(parsed(std::to_string(n) + "Ki") == parsed(std::to_string(n * 1024)));
  RC_ASSERT(parsed(std::to_string(n) + "Ei") == parsed(std::to_string(n << 30) + "Gi"));
}

RC_GTEST_PROP(QuantityProperty, rendered_internal_amounts_parse_back_to_the_same_integer, ()) {
  const std::string resource = *rc::gen::element<std::string>("cpu", "memory", "hugepages-1Gi", "pods");
  const int64_t n = *rc::gen::weightedOneOf<int64_t>(
      {{2, rc::gen::inRange<int64_t>(0, kMax)},
       {1, rc::gen::map(rc::gen::inRange<int64_t>(0, 1 << 20), [](int64_t k) { return k << 30; })},
       {1, rc::gen::map(rc::gen::inRange<int64_t>(0, 1 << 20), [](int64_t k) { return k * 1000; })}});
  RC_ASSERT(parsed(render_internal_amount(resource, n)).to_internal(resource) == n);
}

RC_GTEST_PROP(ResourceVectorProperty, add_is_per_resource_saturating_and_never_negative, ()) {
  ResourceVector into = *resource_vectors();
  const ResourceVector before = into;
  const ResourceVector other = *resource_vectors();
  add_to(into, other);
  RC_ASSERT(all_positive(into));
  for (const auto& [resource, value] : into) {
    const int64_t a = amount(before, resource);
    const int64_t b = amount(other, resource);
    RC_ASSERT(value == (a > kMax - b ? kMax : a + b));
  }
}

RC_GTEST_PROP(ResourceVectorProperty, subtract_is_per_resource_floored_at_zero, ()) {
  ResourceVector from = *resource_vectors();
  const ResourceVector before = from;
  const ResourceVector other = *resource_vectors();
  subtract_from(from, other);
  RC_ASSERT(all_positive(from));
  for (const auto& [resource, value] : before) {
    RC_ASSERT(amount(from, resource) == std::max<int64_t>(0, value - amount(other, resource)));
  }
}

RC_GTEST_PROP(ResourceVectorProperty, scaling_saturates_and_is_never_negative, ()) {
  const ResourceVector per_replica = *resource_vectors();
  const int64_t replicas = *rc::gen::inRange<int64_t>(-3, 100000);
  const ResourceVector total = scaled(per_replica, replicas);
  RC_ASSERT(all_positive(total));
  for (const auto& [resource, value] : per_replica) {
    const int64_t expected = replicas <= 0 ? 0 : (value > kMax / replicas ? kMax : value * replicas);
    RC_ASSERT(amount(total, resource) == expected);
  }
}

RC_GTEST_PROP(ResourceVectorProperty, converted_vectors_never_hold_zero_or_negative_entries, ()) {
  const ResourceList list = {{"cpu", *quantity_texts()}, {"memory", *quantity_texts()}};
  RC_ASSERT(all_positive(to_vector(list)));
}

}  // namespace KOORDQ_TEST_LOCAL
}  // namespace koordq::schema
