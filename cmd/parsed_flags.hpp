// The raw text of the flags given on one command line, by canonical name, and the positional
// arguments, before any value is interpreted.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace koordq::cmd {

class ParsedFlags {
 public:
  void add(std::string_view name, std::string value);
  void add_positional(std::string value);

  bool given(std::string_view name) const;
  // The last occurrence: a repeated flag overrides the earlier ones, as in Go's flag packages.
  std::optional<std::string> value(std::string_view name) const;
  // Every occurrence, in order (repeatable flags).
  std::vector<std::string> values(std::string_view name) const;
  const std::vector<std::string>& positionals() const { return positionals_; }

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
  std::vector<std::string> positionals_;
};

}  // namespace koordq::cmd
