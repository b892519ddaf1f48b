#include "cmd/parsed_flags.hpp"

namespace koordq::cmd {

void ParsedFlags::add(std::string_view name, std::string value) {
  auto it = values_.find(name);
  if (it == values_.end()) it = values_.emplace(std::string(name), std::vector<std::string>{}).first;
  it->second.push_back(std::move(value));
}

void ParsedFlags::add_positional(std::string value) {
  positionals_.push_back(std::move(value));
}

bool ParsedFlags::given(std::string_view name) const {
  return values_.find(name) != values_.end();
}

std::optional<std::string> ParsedFlags::value(std::string_view name) const {
  auto it = values_.find(name);
  if (it == values_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> ParsedFlags::values(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? std::vector<std::string>{} : it->second;
}

}  // namespace koordq::cmd
