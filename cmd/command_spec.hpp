// What a command accepts, written once: the same tables register the flags with the parser and
// render `--help`, so the two cannot drift apart.
#pragma once

#include <string_view>
#include <vector>

namespace koordq::cmd {

struct FlagSpec {
  std::string_view name;          // canonical spelling, used in messages: `--qps`, `-o`
  std::string_view aliases;       // other spellings, comma-separated: `--podInitialBackoffSeconds`
  std::string_view value_name;    // `N`, `DURATION`; empty for a boolean flag
  std::string_view default_text;  // shown as `(default …)`; empty shows none
  std::string_view description;
  bool repeatable = false;  // every occurrence counts instead of the last one
};

struct FlagGroup {
  std::string_view title;
  std::vector<FlagSpec> flags;
};

struct ArgumentSpec {
  std::string_view name;
  std::string_view description;
};

// A two-column section of the help after the flags, such as the keys of --what-if.
struct HelpSection {
  std::string_view title;
  std::vector<ArgumentSpec> rows;
};

struct SubcommandSummary {
  std::string_view name;
  std::string_view summary;
};

struct CommandSpec {
  std::string_view path;         // `serve`, `journal export`; empty for the root
  std::string_view summary;      // one line, for the parent's command list
  std::string_view description;  // one paragraph
  std::vector<std::string_view> usage;
  std::vector<ArgumentSpec> arguments;
  std::vector<FlagGroup> flag_groups;
  std::vector<SubcommandSummary> subcommands;
  std::vector<HelpSection> sections;
  std::vector<std::string_view> exit_codes;  // `<code>  <meaning>` lines
};

// The flags named by spec, in table order (help excluded).
std::vector<const FlagSpec*> all_flags(const CommandSpec& spec);

// The line of a command in its parent's list: the last word of its path and its summary.
SubcommandSummary subcommand_summary(const CommandSpec& spec);

}  // namespace koordq::cmd
