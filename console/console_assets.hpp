// The console's page, style and script, compiled into the binary from console/assets/ (no CDN,
// no fetch at run time).
#pragma once

#include <optional>
#include <string_view>

namespace koordq::console {

struct Asset {
  std::string_view content_type;
  std::string_view body;
};

// "/console/" is index.html; std::nullopt for a name the console does not have.
std::optional<Asset> find_asset(std::string_view path);

}  // namespace koordq::console
