#include <array>
#include <cstdlib>
#include <string>

#include <unistd.h>

#include "base/uuid.hpp"
#include "kube/leader/leader_elector.hpp"

namespace koordq::kube {
namespace {

std::string host_name() {
  std::array<char, 256> name{};
  if (gethostname(name.data(), name.size() - 1) != 0 || name[0] == '\0') return "koordq";
  return name.data();
}

}  // namespace

std::string make_leader_identity() {
  const char* pod = std::getenv("POD_NAME");
  return (pod != nullptr && *pod != '\0' ? std::string(pod) : host_name()) + "_" + base::random_uuid();
}

}  // namespace koordq::kube
