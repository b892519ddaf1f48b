#include <array>
#include <cstdlib>
#include <random>
#include <string>

#include <fmt/format.h>
#include <unistd.h>

#include "kube/leader/leader_elector.hpp"

namespace koordq::kube {
namespace {

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') return "koordq";
  return name.data();
}

// A version 4 (random) UUID.
std::string random_uuid() {
  std::random_device source;
  std::array<uint8_t, 16> b{};
  for (size_t i = 0; i < b.size(); i += 4) {
    const uint32_t word = source();
    for (size_t j = 0; j < 4; ++j) b[i + j] = static_cast<uint8_t>(word >> (8 * j));
  }
  b[6] = static_cast<uint8_t>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<uint8_t>((b[8] & 0x3f) | 0x80);
  return fmt::format(
      "{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}", b[0],
      b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
}

}  // namespace

std::string make_leader_identity() {
  const char* pod = std::getenv("POD_NAME");
  return (pod != nullptr && *pod != '\0' ? std::string(pod) : host_name()) + "_" + random_uuid();
}

}  // namespace koordq::kube
