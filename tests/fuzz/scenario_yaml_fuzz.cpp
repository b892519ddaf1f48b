// Simulator scenario YAML (`serve --simulate --scenario FILE`, behaviour.md §21) on arbitrary
// bytes. Beyond not crashing: a refused scenario gets one message that names its source first,
// and reading the same text twice gives the same scenario or the same message.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "kube/simulator/scenario.hpp"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view yaml(reinterpret_cast<const char*>(data), size);
  auto first = koordq::kube::sim::parse_scenario(yaml, "fuzz.yaml");
  auto second = koordq::kube::sim::parse_scenario(yaml, "fuzz.yaml");
  check(first.ok() == second.ok());
  if (first.ok()) {
    check(*first == *second);
  } else {
    check(first.message().rfind("fuzz.yaml", 0) == 0 && first.message() == second.message());
  }
  return 0;
}
