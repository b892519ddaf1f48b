#include "schema/resource_list.hpp"

#include <limits>

#include "schema/quantity.hpp"

namespace koordq::schema {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

int64_t saturating_add(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return b > 0 ? kMax : kMin;
  return sum;
}

int64_t saturating_subtract(int64_t a, int64_t b) {
  int64_t difference = 0;
  if (__builtin_sub_overflow(a, b, &difference)) return b < 0 ? kMax : kMin;
  return difference;
}

int64_t saturating_multiply(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) return (a < 0) != (b < 0) ? kMin : kMax;
  return product;
}

// Vectors hold positive amounts only: an amount of 0 is absent, and nothing goes below 0.
// Sets vector[resource] to change(its amount, 0 when absent) with one search.
template <class Change>
void update(ResourceVector& vector, const std::string& resource, Change change) {
  const auto it = vector.lower_bound(resource);
  const bool present = it != vector.end() && it->first == resource;
  const int64_t amount = change(present ? it->second : 0);
  if (amount > 0) {
    if (present) {
      it->second = amount;
    } else {
      vector.emplace_hint(it, resource, amount);
    }
  } else if (present) {
    vector.erase(it);
  }
}

// Appends in key order to a vector being built from another map's entries.
void append(ResourceVector& vector, const std::string& resource, int64_t amount) {
  if (amount > 0) vector.emplace_hint(vector.end(), resource, amount);
}

}  // namespace

ResourceVector to_vector(const ResourceList& list, std::map<std::string, std::string>* unparsable) {
  ResourceVector vector;
  for (const auto& [resource, text] : list) {
    auto quantity = Quantity::parse(text);
    if (!quantity) {
      if (unparsable != nullptr) unparsable->insert_or_assign(resource, quantity.message());
      continue;
    }
    append(vector, resource, quantity->to_internal(resource));
  }
  return vector;
}

void add_to(ResourceVector& into, const ResourceVector& other) {
  for (const auto& [resource, amount] : other) {
    update(into, resource, [amount = amount](int64_t now) { return saturating_add(now, amount); });
  }
}

void subtract_from(ResourceVector& from, const ResourceVector& other) {
  for (const auto& [resource, amount] : other) {
    update(from, resource, [amount = amount](int64_t now) { return saturating_subtract(now, amount); });
  }
}

ResourceVector scaled(const ResourceVector& per_replica, int64_t replicas) {
  ResourceVector vector;
  if (replicas <= 0) return vector;
  for (const auto& [resource, amount] : per_replica) append(vector, resource, saturating_multiply(amount, replicas));
  return vector;
}

}  // namespace koordq::schema
