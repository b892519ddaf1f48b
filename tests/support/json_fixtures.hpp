// Reads the JSON fixtures of tests/fixtures/ (realistic API server output) for the JSON codec tests.
// KOORDQ_FIXTURES_DIR is set by tests/unit/json.cmake and tests/property/json.cmake.
#pragma once

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace koordq::testing {

inline std::string read_fixture(const std::string& name) {
  std::ifstream in(std::string(KOORDQ_FIXTURES_DIR) + "/" + name, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + name);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace koordq::testing
