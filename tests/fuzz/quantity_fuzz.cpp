// Quantity parsing (behaviour.md §3) on arbitrary bytes. Beyond not crashing: every accepted input
// renders canonically and round-trips, converts to non-negative integers, and its rendered internal
// amounts parse back to the same integers; every rejected input gets a message naming it.
// An input with a ',' is also read as two quantities whose order must agree with their integers.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "schema/quantity.hpp"

namespace {

using koordq::schema::Quantity;

void check(bool condition) {
  if (!condition) std::abort();
}

void check_conversions(const Quantity& q) {
  for (const std::string_view resource : {"cpu", "memory", "pods"}) {
    const int64_t amount = q.to_internal(resource);
    check(amount >= 0);
    auto back = Quantity::parse(koordq::schema::render_internal_amount(resource, amount));
    check(back.ok() && back->to_internal(resource) == amount);
  }
  check(q.to_internal("cpu") >= q.to_internal("memory"));
}

void check_accepted(const Quantity& q) {
  const std::string rendered = q.render();
  auto again = Quantity::parse(rendered);
  check(again.ok() && *again == q && (*again <=> q) == 0 && again->render() == rendered);
  check(q.is_zero() == (q <=> Quantity{} == 0));
  check_conversions(q);
  if (!q.negative()) {
    auto negated = Quantity::parse("-" + rendered);
    check(negated.ok() && *negated <= q && negated->is_zero() == q.is_zero());
  }
}

void check_pair(std::string_view left, std::string_view right) {
  auto a = Quantity::parse(left);
  auto b = Quantity::parse(right);
  if (!a.ok() || !b.ok()) return;
  check((*a <=> *b) == (0 <=> (*b <=> *a)));
  check((*a == *b) == ((*a <=> *b) == 0));
  if (*a < *b) {
    check(a->to_internal("cpu") <= b->to_internal("cpu"));
    check(a->to_internal("memory") <= b->to_internal("memory"));
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = Quantity::parse(text);
  if (parsed.ok()) {
    check_accepted(*parsed);
  } else {
    check(parsed.message().rfind("invalid quantity \"", 0) == 0);
  }
  const size_t comma = text.find(',');
  if (comma != std::string_view::npos) check_pair(text.substr(0, comma), text.substr(comma + 1));
  return 0;
}
