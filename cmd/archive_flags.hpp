// `koordq archive ls|verify|export` (behaviour.md §26): the journal archive in S3, read without any
// cluster or local journal.
#pragma once

#include <cstdint>
#include <string>

#include "base/result.hpp"
#include "cmd/archive_target.hpp"
#include "cmd/command_environment.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/parsed_flags.hpp"

namespace koordq::cmd {

enum class ArchiveLsOutput { text, json };

struct ArchiveLsOptions {
  ArchiveTarget target;
  ArchiveLsOutput output = ArchiveLsOutput::text;
  bool times = true;  // read the first and last segment of each journal for its record times
};

struct ArchiveVerifyOptions {
  ArchiveTarget target;
  std::string public_key_file;
};

struct ArchiveExportOptions {
  ArchiveTarget target;
  uint64_t from_seq = 1;
  uint64_t to_seq = UINT64_MAX;
  std::string output = "-";  // a file, or `-` for stdout
};

const CommandSpec& archive_command_spec();  // the group
const CommandSpec& archive_ls_command_spec();
const CommandSpec& archive_verify_command_spec();
const CommandSpec& archive_export_command_spec();

Result<ArchiveLsOptions> read_archive_ls_options(const ParsedFlags& flags, const CommandEnvironment& env);
Result<ArchiveVerifyOptions> read_archive_verify_options(const ParsedFlags& flags, const CommandEnvironment& env);
Result<ArchiveExportOptions> read_archive_export_options(const ParsedFlags& flags, const CommandEnvironment& env);

}  // namespace koordq::cmd
