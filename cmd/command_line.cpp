#include "cmd/command_line.hpp"

#include <algorithm>
#include <map>

#include <CLI/CLI.hpp>

#include "cmd/exit_codes.hpp"
#include "cmd/help_text.hpp"
#include "cmd/root_command.hpp"
#include "cmd/usage_error.hpp"

namespace koordq::cmd {
namespace {

// CLI11 2.1 reads `--name=` as "no value yet" and takes the next argument; Go's flag packages
// read an empty value (`--legacy-lease-guard=""` in a shell). The empty value travels as this
// marker through CLI11 and becomes "" again when read back.
const std::string kEmptyValue = "\x1e";
const std::string kHelpFlag = "--help";

using ReadCommand = Result<CommandOptions> (*)(const ParsedFlags&, const CommandEnvironment&);

template <auto read>
Result<CommandOptions> read_command(const ParsedFlags& flags, const CommandEnvironment& env) {
  auto options = read(flags, env);
  if (!options.ok()) return options.error();
  return CommandOptions{std::move(options).value()};
}

struct CommandEntry {
  const CommandSpec* spec;
  ReadCommand read;  // nullptr for a group of commands (the root, journal)
};

std::vector<CommandEntry> command_entries() {
  return {
      {&root_command_spec(), nullptr},
      {&serve_command_spec(), read_command<read_serve_options>},
      {&replay_command_spec(), read_command<read_replay_options>},
      {&at_command_spec(), read_command<read_at_options>},
      {&explain_command_spec(), read_command<read_explain_options>},
      {&console_command_spec(), read_command<read_console_options>},
      {&journal_command_spec(), nullptr},
      {&journal_import_command_spec(), read_command<read_journal_import_options>},
      {&journal_export_command_spec(), read_command<read_journal_export_options>},
      {&journal_verify_command_spec(), read_command<read_journal_verify_options>},
      {&journal_stat_command_spec(), read_command<read_journal_stat_options>},
      {&journal_checkpoint_command_spec(), read_command<read_journal_checkpoint_options>},
      {&journal_keygen_command_spec(), read_command<read_journal_keygen_options>},
      {&archive_command_spec(), nullptr},
      {&archive_ls_command_spec(), read_command<read_archive_ls_options>},
      {&archive_verify_command_spec(), read_command<read_archive_verify_options>},
      {&archive_export_command_spec(), read_command<read_archive_export_options>},
      {&version_command_spec(), read_command<read_version_options>},
  };
}

std::vector<std::string> prepare_arguments(const std::vector<std::string>& args) {
  std::vector<std::string> prepared;
  bool after_separator = false;
  for (const std::string& arg : args) {
    if (after_separator || arg == "--") {
      after_separator = true;
      prepared.push_back(arg);
    } else if (arg.size() > 3 && arg.starts_with("--") && arg.find('=') == arg.size() - 1) {
      prepared.push_back(arg + kEmptyValue);
    } else if (arg.size() >= 3 && arg[0] == '-' && arg[1] != '-' && arg[2] == '=') {
      // `-o=json`: CLI11 would read the value as `=json`.
      prepared.push_back(arg.substr(0, 2));
      prepared.push_back(arg.substr(3));
    } else {
      prepared.push_back(arg);
    }
  }
  return prepared;
}

std::string read_back(const std::string& value) {
  return value == kEmptyValue ? std::string() : value;
}

bool is_flag_token(const std::string& token) {
  return token.size() > 1 && token[0] == '-';
}

std::string flag_name_of(const std::string& token) {
  return token.substr(0, token.find('='));
}

// CLI11 holds the parsing state; koordq only asks it to split the arguments into flags with
// their raw values, sub-commands and leftovers. Every value is interpreted by the commands.
class CommandTree {
 public:
  explicit CommandTree(std::vector<CommandEntry> entries) : entries_(std::move(entries)) {
    root_.set_help_flag();
    root_.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    configure(root_, entries_.front());
    for (auto entry = entries_.begin() + 1; entry != entries_.end(); ++entry) {
      const std::string_view path = entry->spec->path;
      const size_t space = path.rfind(' ');
      CLI::App* parent = space == std::string_view::npos ? &root_ : by_path_.at(path.substr(0, space));
      configure(*parent->add_subcommand(std::string(subcommand_summary(*entry->spec).name)), *entry);
    }
  }

  CLI::App& root() { return root_; }
  const CommandEntry& entry(const CLI::App* app) const { return *by_app_.at(app); }

  // The root, then each selected sub-command.
  std::vector<CLI::App*> selected_chain() {
    std::vector<CLI::App*> chain{&root_};
    while (!chain.back()->get_subcommands().empty()) chain.push_back(chain.back()->get_subcommands().front());
    return chain;
  }

 private:
  void configure(CLI::App& app, const CommandEntry& entry) {
    by_app_[&app] = &entry;
    by_path_[entry.spec->path] = &app;
    app.allow_extras();
    // At most one sub-command per level: a later argument that happens to be a command's name
    // (a queue named `version`) stays a positional of the selected command.
    app.require_subcommand(0, 1);
    app.add_flag("-h," + kHelpFlag);
    for (const FlagSpec* flag : all_flags(*entry.spec)) {
      std::string names(flag->name);
      if (!flag->aliases.empty()) names += "," + std::string(flag->aliases);
      if (flag->value_name.empty()) {
        app.add_flag(names);
      } else {
        app.add_option(names);
      }
    }
  }

  CLI::App root_{"", "koordq"};
  std::vector<CommandEntry> entries_;
  std::map<const CLI::App*, const CommandEntry*> by_app_;
  std::map<std::string_view, CLI::App*> by_path_;
};

CommandLineExit usage_exit(const Error& error) {
  return {kExitUsage, "", error.message + "\n"};
}

// Leftovers of a group (the root, journal): an unknown flag, or a word that names no command.
std::optional<Error> unknown_in_group(const CLI::App& app, std::string_view path) {
  const std::vector<std::string> leftovers = app.remaining();
  if (leftovers.empty()) return std::nullopt;
  const std::string& first = leftovers.front();
  if (is_flag_token(first)) return usage_error(path, "unknown flag " + flag_name_of(first));
  return usage_error(path, "unknown command \"" + first + "\"");
}

Result<ParsedFlags> collect_flags(const CLI::App& app, const CommandSpec& spec) {
  ParsedFlags flags;
  for (const FlagSpec* flag : all_flags(spec)) {
    const CLI::Option* option = app.get_option(std::string(flag->name));
    for (const std::string& value : option->results()) flags.add(flag->name, read_back(value));
  }
  for (const std::string& leftover : app.remaining()) {
    if (is_flag_token(leftover)) return usage_error(spec.path, "unknown flag " + flag_name_of(leftover));
    flags.add_positional(read_back(leftover));
  }
  return flags;
}

}  // namespace

std::variant<CommandOptions, CommandLineExit> parse_command_line(const std::vector<std::string>& args,
                                                                 const CommandEnvironment& env) {
  CommandTree tree(command_entries());
  std::vector<std::string> reversed = prepare_arguments(args);
  std::reverse(reversed.begin(), reversed.end());
  try {
    tree.root().parse(reversed);
  } catch (const CLI::ArgumentMismatch& e) {
    // The only mismatch left with every option taking one value: the last argument is a flag that
    // needs a value. CLI11 names the option before the first ':'.
    const std::string what = e.what();
    const std::string_view path = tree.entry(tree.selected_chain().back()).spec->path;
    return usage_exit(usage_error(path, "flag " + what.substr(0, what.find(':')) + " needs a value"));
  } catch (const CLI::ParseError& e) {
    return usage_exit(usage_error(tree.entry(tree.selected_chain().back()).spec->path, e.what()));
  }

  const std::vector<CLI::App*> chain = tree.selected_chain();
  const CommandEntry& selected = tree.entry(chain.back());
  for (const CLI::App* app : chain) {
    if (app->get_option(kHelpFlag)->count() > 0) return CommandLineExit{kExitSuccess, render_help(*selected.spec), ""};
  }
  for (const CLI::App* app : chain) {
    const CommandEntry& entry = tree.entry(app);
    if (entry.read != nullptr) break;
    if (auto unknown = unknown_in_group(*app, entry.spec->path)) return usage_exit(*unknown);
  }
  if (selected.read == nullptr) {
    std::string commands;
    for (const SubcommandSummary& sub : selected.spec->subcommands) {
      commands += (commands.empty() ? "" : ", ") + std::string(sub.name);
    }
    return usage_exit(usage_error(selected.spec->path, "missing command: one of " + commands));
  }

  Result<ParsedFlags> flags = collect_flags(*chain.back(), *selected.spec);
  if (!flags.ok()) return usage_exit(flags.error());
  Result<CommandOptions> options = selected.read(*flags, env);
  if (!options.ok()) return usage_exit(options.error());
  return std::move(options).value();
}

}  // namespace koordq::cmd
