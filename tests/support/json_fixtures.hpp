// Reads the JSON fixtures of tests/fixtures/ (realistic API server output) for the JSON codec tests.
// KOORDQ_FIXTURES_DIR is set by tests/unit/json.cmake and tests/property/json.cmake.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>

namespace koordq::testing {

inline std::string read_fixture(const std::string& name) {
  // A path, not `std::string(DIR) + "/" + name`: GCC 12 at -O2 reports a false -Warray-bounds in
  // the inlined concatenation of a string literal macro.
  std::ifstream in(std::filesystem::path(KOORDQ_FIXTURES_DIR) / name, std::ios::binary);
  if (!in) throw std::runtime_error("missing fixture " + name);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace koordq::testing
