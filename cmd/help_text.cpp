#include "cmd/help_text.hpp"

#include <algorithm>
#include <sstream>

namespace koordq::cmd {
namespace {

constexpr size_t kLineWidth = 100;
constexpr size_t kIndent = 2;
constexpr size_t kGap = 3;
constexpr size_t kMaxLabelWidth = 40;

const FlagSpec kHelpFlagSpec{"-h", "--help", "", "", "show this help"};

std::vector<std::string> wrap(std::string_view text, size_t width) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream words{std::string(text)};
  std::string word;
  while (words >> word) {
    if (!line.empty() && line.size() + 1 + word.size() > width) {
      lines.push_back(line);
      line.clear();
    }
    if (!line.empty()) line += ' ';
    line += word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

void write_paragraph(std::ostringstream& out, std::string_view text) {
  for (const std::string& line : wrap(text, kLineWidth)) out << line << '\n';
}

// `-o, --output FORMAT`, or `--qps QPS` (long aliases are listed in the description instead).
std::string flag_label(const FlagSpec& flag) {
  std::string label(flag.name);
  const bool short_name = flag.name.size() == 2;
  if (short_name && !flag.aliases.empty()) label += ", " + std::string(flag.aliases);
  if (!flag.value_name.empty()) label += " " + std::string(flag.value_name);
  return label;
}

std::string flag_description(const FlagSpec& flag) {
  std::string text(flag.description);
  std::vector<std::string> notes;
  if (!flag.default_text.empty()) notes.push_back("default " + std::string(flag.default_text));
  if (flag.name.size() > 2 && !flag.aliases.empty()) notes.push_back("also " + std::string(flag.aliases));
  if (flag.repeatable) notes.push_back("repeatable");
  if (!notes.empty()) {
    text += " (";
    for (size_t i = 0; i < notes.size(); ++i) text += (i > 0 ? "; " : "") + notes[i];
    text += ")";
  }
  return text;
}

using Rows = std::vector<std::pair<std::string, std::string>>;

size_t label_width(const Rows& rows) {
  size_t width = 0;
  for (const auto& [label, text] : rows) width = std::max(width, std::min(label.size(), kMaxLabelWidth));
  return width;
}

// Two columns: a label, then its description wrapped beside it (below it when the label is long).
void write_rows(std::ostringstream& out, const Rows& rows, size_t width, size_t gap = kGap) {
  const size_t text_column = kIndent + width + gap;
  for (const auto& [label, text] : rows) {
    const std::vector<std::string> lines = wrap(text, kLineWidth - text_column);
    out << std::string(kIndent, ' ') << label;
    size_t first = 0;
    if (label.size() <= width && !lines.empty()) {
      out << std::string(width - label.size() + gap, ' ') << lines[0];
      first = 1;
    }
    out << '\n';
    for (size_t i = first; i < lines.size(); ++i) out << std::string(text_column, ' ') << lines[i] << '\n';
  }
}

Rows flag_rows(const std::vector<FlagSpec>& flags) {
  Rows rows;
  for (const FlagSpec& flag : flags) rows.emplace_back(flag_label(flag), flag_description(flag));
  return rows;
}

void write_section(std::ostringstream& out, std::string_view title, const Rows& rows, size_t width) {
  out << '\n' << title << ":\n";
  write_rows(out, rows, width);
}

Rows argument_rows(const std::vector<ArgumentSpec>& arguments) {
  Rows rows;
  for (const ArgumentSpec& argument : arguments) rows.emplace_back(argument.name, argument.description);
  return rows;
}

}  // namespace

std::string render_help(const CommandSpec& spec) {
  std::ostringstream out;
  write_paragraph(out, spec.description);

  out << "\nUsage:\n";
  for (std::string_view usage : spec.usage) out << std::string(kIndent, ' ') << usage << '\n';

  if (!spec.arguments.empty()) {
    const Rows rows = argument_rows(spec.arguments);
    write_section(out, "Arguments", rows, label_width(rows));
  }
  if (!spec.subcommands.empty()) {
    Rows rows;
    for (const SubcommandSummary& sub : spec.subcommands) rows.emplace_back(sub.name, sub.summary);
    write_section(out, "Commands", rows, label_width(rows));
  }
  // One label column for every flag group, so that the groups line up. -h joins a lone group.
  std::vector<Rows> groups;
  for (const FlagGroup& group : spec.flag_groups) groups.push_back(flag_rows(group.flags));
  const Rows help_rows = flag_rows({kHelpFlagSpec});
  const bool separate_help = spec.flag_groups.size() != 1;
  if (!separate_help) groups.front().insert(groups.front().end(), help_rows.begin(), help_rows.end());
  size_t flags_width = label_width(help_rows);
  for (const Rows& rows : groups) flags_width = std::max(flags_width, label_width(rows));
  for (size_t i = 0; i < groups.size(); ++i) write_section(out, spec.flag_groups[i].title, groups[i], flags_width);
  if (separate_help) write_section(out, spec.flag_groups.empty() ? "Flags" : "Other flags", help_rows, flags_width);
  for (const HelpSection& section : spec.sections) {
    const Rows rows = argument_rows(section.rows);
    write_section(out, section.title, rows, label_width(rows));
  }

  if (!spec.exit_codes.empty()) {
    Rows rows;
    for (std::string_view line : spec.exit_codes) {
      const size_t gap = line.find("  ");
      rows.emplace_back(std::string(line.substr(0, gap)), std::string(line.substr(gap + 2)));
    }
    out << "\nExit codes:\n";
    write_rows(out, rows, label_width(rows), 2);
  }
  if (!spec.subcommands.empty()) {
    const std::string prefix = spec.path.empty() ? "koordq" : "koordq " + std::string(spec.path);
    out << "\nRun '" << prefix << " <command> --help' for the flags of a command.\n";
  }
  return out.str();
}

}  // namespace koordq::cmd
