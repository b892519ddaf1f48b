// Typed reads of the flags of one command line. The first invalid value is kept and later reads
// are skipped, so a command reads its flags in table order and checks once at the end; flags that
// were not given leave their target (the default) untouched.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/byte_size.hpp"
#include "base/result.hpp"
#include "cmd/parsed_flags.hpp"
#include "cmd/when.hpp"

namespace koordq::cmd {

enum class DurationBound { non_negative, positive };

class FlagReader {
 public:
  FlagReader(std::string_view command, const ParsedFlags& flags) : command_(command), flags_(flags) {}

  void text(std::string_view flag, std::string& out);
  void non_empty_text(std::string_view flag, std::string& out);
  void boolean(std::string_view flag, bool& out);
  void integer(std::string_view flag, int64_t& out, int64_t min, int64_t max = std::numeric_limits<int64_t>::max());
  void port(std::string_view flag, uint16_t& out);
  void duration(std::string_view flag, int64_t& out_nanos, DurationBound bound);
  void positive_decimal_ppm(std::string_view flag, int64_t& out_ppm);
  void positive_byte_size(std::string_view flag, int64_t& out_bytes);
  void positive_retention(std::string_view flag, base::Retention& out);
  void when(std::string_view flag, std::optional<When>& out);

  template <class Enum>
  void choice(std::string_view flag, Enum& out, std::initializer_list<std::pair<std::string_view, Enum>> choices) {
    const std::optional<std::string> value = next(flag);
    if (!value) return;
    for (const auto& [name, choice] : choices) {
      if (*value == name) {
        out = choice;
        return;
      }
    }
    std::string names;
    size_t i = 0;
    for (const auto& [name, choice] : choices) {
      names += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + std::string(name);
      ++i;
    }
    reject(flag, *value, "must be " + names);
  }

  // Records `invalid value "<value>" for <flag>: <requirement>` unless an error is already kept.
  void reject(std::string_view flag, std::string_view value, std::string_view requirement);
  // Records any other error unless one is already kept.
  void fail(Error error);

  bool ok() const { return !error_.has_value(); }
  const Error& error() const { return *error_; }
  std::string_view command() const { return command_; }
  const ParsedFlags& flags() const { return flags_; }

 private:
  // The flag's value when it was given and no error is kept yet.
  std::optional<std::string> next(std::string_view flag) const;

  std::string_view command_;
  const ParsedFlags& flags_;
  std::optional<Error> error_;
};

// Decimal integers with an optional sign, no other characters; nullopt when out of int64.
std::optional<int64_t> parse_integer(std::string_view text);
// Go's strconv.ParseBool: 1 t T TRUE true True, 0 f F FALSE false False.
std::optional<bool> parse_bool(std::string_view text);

}  // namespace koordq::cmd
