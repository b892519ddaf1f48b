// `koordq journal import|export|verify|stat|checkpoint|keygen` (behaviour.md §24.4).
#pragma once

#include <optional>
#include <string>

#include "base/result.hpp"
#include "cmd/command_environment.hpp"
#include "cmd/command_spec.hpp"
#include "cmd/journal_source.hpp"
#include "cmd/parsed_flags.hpp"
#include "cmd/when.hpp"

namespace koordq::cmd {

struct JournalImportOptions {
  std::string journal_dir{kDefaultJournalDir};  // created when missing
  std::string input;                            // a file, or `-` for stdin
  std::string signing_key_file;                 // required by a journal that is signed
};

enum class ExportFormat { ndjson, audit };

struct JournalExportOptions {
  JournalSource source;  // a journal directory or the archive (never an export)
  ExportFormat format = ExportFormat::ndjson;
  std::optional<When> from;      // inclusive
  std::optional<When> to;        // inclusive
  std::string output = "-";      // a file, or `-` for stdout
  std::string signing_key_file;  // signs the trailer when given
};

struct JournalVerifyOptions {
  JournalSource source;
  std::string public_key_file;  // HEAD, the retention cut or the trailer must carry its signature
  // The external witness (behaviour.md §24.5): read through the API server (--witness) or from a
  // file holding the ConfigMap as `kubectl get -o json` prints it (--witness-file).
  bool witness = false;
  std::string witness_file;
  std::string witness_namespace = "koord-queue";
  std::string witness_name = "koordq-journal-witness";
  std::string kubeconfig;  // empty: KUBECONFIG, else in-cluster
};

struct JournalKeygenOptions {
  std::string private_key_file;  // neither may exist
  std::string public_key_file;
};

inline constexpr FlagSpec kSigningKeyFileFlag{
    "--journal-signing-key-file", "", "FILE", "",
    "the Ed25519 private key (PEM, mode 0600) from journal keygen; signs HEAD, the retention cut, snapshot anchors "
    "and export trailers"};

enum class StatOutput { text, json };

struct JournalStatOptions {
  JournalSource source;  // a journal directory or the archive (never an export)
  StatOutput output = StatOutput::text;
};

struct JournalCheckpointOptions {
  std::string journal_dir{kDefaultJournalDir};
  std::string target_dir;  // did not exist when the flags were read
};

const CommandSpec& journal_command_spec();  // the group: lists the sub-commands
const CommandSpec& journal_import_command_spec();
const CommandSpec& journal_export_command_spec();
const CommandSpec& journal_verify_command_spec();
const CommandSpec& journal_stat_command_spec();
const CommandSpec& journal_checkpoint_command_spec();
const CommandSpec& journal_keygen_command_spec();

Result<JournalImportOptions> read_journal_import_options(const ParsedFlags& flags, const CommandEnvironment& env);
Result<JournalExportOptions> read_journal_export_options(const ParsedFlags& flags, const CommandEnvironment& env);
Result<JournalVerifyOptions> read_journal_verify_options(const ParsedFlags& flags, const CommandEnvironment& env);
Result<JournalStatOptions> read_journal_stat_options(const ParsedFlags& flags, const CommandEnvironment& env);
Result<JournalCheckpointOptions> read_journal_checkpoint_options(const ParsedFlags& flags,
                                                                 const CommandEnvironment& env);
Result<JournalKeygenOptions> read_journal_keygen_options(const ParsedFlags& flags, const CommandEnvironment& env);

}  // namespace koordq::cmd
