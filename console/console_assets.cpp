#include "console/console_assets.hpp"

#include "console/embedded_assets.hpp"

namespace koordq::console {
namespace {

std::string_view content_type_of(std::string_view name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (name.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

}  // namespace

std::optional<Asset> find_asset(std::string_view path) {
  constexpr std::string_view kPrefix = "/console/";
  if (!path.starts_with(kPrefix)) return std::nullopt;
  std::string_view name = path.substr(kPrefix.size());
  if (name.empty()) name = "index.html";
  for (const EmbeddedAsset& asset : embedded_assets()) {
    if (asset.name == name) return Asset{content_type_of(name), asset.body};
  }
  return std::nullopt;
}

}  // namespace koordq::console
