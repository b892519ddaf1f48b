#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include <fcntl.h>
#include <rapidjson/document.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/debug_service.hpp"
#include "cmd/archive_journal_verify.hpp"
#include "cmd/at_source.hpp"
#include "cmd/commands.hpp"
#include "cmd/default_paths.hpp"
#include "cmd/exit_codes.hpp"
#include "cmd/journal_access.hpp"
#include "cmd/progress.hpp"
#include "cmd/witness_configmap.hpp"
#include "journal/export_records.hpp"
#include "journal/import_records.hpp"
#include "journal/journal.hpp"
#include "journal/journal_stat.hpp"
#include "journal/redaction_key.hpp"
#include "journal/revision_lookup.hpp"
#include "journal/signing_key.hpp"
#include "journal/verify.hpp"
#include "journal/witness_check.hpp"
#include "kube/client/client_config.hpp"
#include "kube/client/http_client.hpp"
#include "kube/client/watched_resource.hpp"
#include "schema/raw_object.hpp"

namespace koordq::cmd {
namespace {

// A pipe holds 64 KiB by default: a reader or writer of a whole export then waits for the other
// process every 64 KiB. Asking for 1 MiB (Linux's default limit for anyone) makes those waits 16x
// rarer (BENCHMARKS.md, "Export and verify"); anything else than a pipe, or a refusal, changes
// nothing.
void widen_pipe(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) ::fcntl(fd, F_SETPIPE_SZ, 1 << 20);
}

// --from: the first seq to export (inclusive); std::nullopt when nothing is that new.
Result<std::optional<uint64_t>> resolve_from(journal::JournalReader& reader, const journal::RetainedRange& range,
                                             const When& when) {
  using Out = std::optional<uint64_t>;
  if (when.kind == When::Kind::revision) {
    auto seq = journal::check_revision(range, when.revision);
    if (!seq.ok()) return seq.error();
    return Out{*seq};
  }
  if (range.first != 0 && when.unix_nanos < range.first_time) {
    auto older = journal::revision_at_time(reader, range, when.unix_nanos, when.text);
    if (!older.ok()) return older.error();
  }
  return Out{journal::first_revision_from_time(reader, when.unix_nanos)};
}

// --to: the last seq to export (inclusive).
Result<uint64_t> resolve_to(journal::JournalReader& reader, const journal::RetainedRange& range, const When& when) {
  if (when.kind == When::Kind::revision) return journal::check_revision(range, when.revision);
  return journal::revision_at_time(reader, range, when.unix_nanos, when.text);
}

}  // namespace

int run_journal_import(const JournalImportOptions& options) {
  constexpr std::string_view kCommand = "journal import";
  std::string input;
  if (options.input == "-") {
    input.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(options.input, std::ios::binary);
    if (!in) return fail_command(kCommand, "cannot read " + options.input, kExitUsage);
    input.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  journal::JournalOptions open_options;
  open_options.dir = options.journal_dir;
  open_options.on_corruption = journal::CorruptionPolicy::kFail;
  open_options.flush_on_close = true;
  if (!options.signing_key_file.empty()) {
    auto key = journal::SigningKey::load(options.signing_key_file);
    if (!key.ok()) return fail_command(kCommand, "--journal-signing-key-file: " + key.message(), kExitUsage);
    open_options.signing_key = std::make_shared<const journal::SigningKey>(std::move(key).value());
  }
  auto j = journal::Journal::open(open_options);
  if (!j.ok()) {
    if (j.message().find("lock") != std::string::npos) {
      return fail_command(kCommand, "the journal in " + options.journal_dir + " is held by another process",
                          kExitJournalUnreadable);
    }
    return fail_command(kCommand, j.message(), kExitJournalUnreadable);
  }
  auto redaction_key = journal::load_or_create_redaction_key(options.journal_dir);
  if (!redaction_key.ok()) return fail_command(kCommand, redaction_key.message(), kExitJournalUnreadable);
  schema::install_redaction_key(*redaction_key);
  auto report = journal::import_records(**j, input, schema::RawObjectMode::kRedacted, [&](const std::string& w) {
    std::fprintf(stderr, "koordq journal import: warning: %s\n", w.c_str());
  });
  if (!report.ok()) return fail_command(kCommand, report.message(), kExitJournalUnreadable);
  std::printf("imported %llu records (seq %llu..%llu)\n", static_cast<unsigned long long>(report->imported),
              static_cast<unsigned long long>(report->first_seq), static_cast<unsigned long long>(report->last_seq));
  if (report->input_error) return fail_command(kCommand, *report->input_error, kExitUsage);
  return kExitSuccess;
}

int run_journal_export(const JournalExportOptions& options) {
  constexpr std::string_view kCommand = "journal export";
  HistoryRange needed;
  if (options.from && options.from->kind == When::Kind::revision) needed.from_seq = options.from->revision;
  if (options.to && options.to->kind == When::Kind::revision) needed.to_seq = options.to->revision;
  if (options.to && options.to->kind == When::Kind::time) needed.to_time = options.to->unix_nanos;
  int exit_code = kExitJournalUnreadable;
  auto history = open_history(kCommand, options.source, needed, &exit_code);
  if (!history) return exit_code;
  journal::JournalReader* reader = history->reader;
  auto range = journal::retained_range(*reader);
  if (!range.ok()) return fail_command(kCommand, range.message(), kExitJournalUnreadable);
  journal::ExportRange export_range;
  if (options.from) {
    auto from = resolve_from(*reader, *range, *options.from);
    if (!from.ok()) return fail_command(kCommand, from.message(), kExitUsage);
    export_range.from_seq = from->value_or(range->last + 1);
  }
  if (options.to) {
    auto to = resolve_to(*reader, *range, *options.to);
    if (!to.ok()) return fail_command(kCommand, to.message(), kExitUsage);
    export_range.to_seq = *to;
  }
  std::optional<journal::SigningKey> key;
  if (!options.signing_key_file.empty()) {
    auto loaded = journal::SigningKey::load(options.signing_key_file);
    if (!loaded.ok()) return fail_command(kCommand, loaded.message(), kExitUsage);
    key = std::move(loaded).value();
  }
  std::ofstream file;
  std::ostream* out = &std::cout;
  if (options.output == "-") widen_pipe(STDOUT_FILENO);
  if (options.output != "-") {
    file.open(options.output, std::ios::binary | std::ios::trunc);
    if (!file) return fail_command(kCommand, "cannot write " + options.output, kExitJournalUnreadable);
    out = &file;
  }
  const uint64_t last = std::min(export_range.to_seq, range->last);
  const uint64_t total = last >= export_range.from_seq ? last - export_range.from_seq + 1 : 0;
  TerminalProgress progress("exporting", total);
  auto written = journal::export_records(
      *reader, options.format == ExportFormat::audit ? journal::ExportFormat::kAudit : journal::ExportFormat::kNdjson,
      export_range, *out, [&](uint64_t seq, uint64_t n) { progress.update(n, seq); }, key ? &*key : nullptr);
  if (!written.ok()) return fail_command(kCommand, written.message(), kExitJournalUnreadable);
  return kExitSuccess;
}

namespace {

// The witness ConfigMap of `journal verify --witness|--witness-file`; `where` names it in messages.
// An error is exit 3 (unreadable), or exit 1 when the API server says there is none.
Result<WitnessConfigMap> read_witness(const JournalVerifyOptions& options, std::string& where, int& exit_code) {
  exit_code = kExitJournalUnreadable;
  std::string body;
  if (!options.witness_file.empty()) {
    std::ifstream in(options.witness_file, std::ios::binary);
    if (!in) return make_error("cannot read witness file " + options.witness_file);
    body.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    auto configmap = parse_witness_configmap(body);
    if (!configmap.ok()) {
      return make_error("witness file " + options.witness_file + ": " + configmap.message() +
                        "; save it with kubectl get configmap -n NS NAME -o json");
    }
    where = "ConfigMap " + configmap->namespace_name + "/" + configmap->name + " (witness file " +
            options.witness_file + ")";
    return configmap;
  }
  where = "ConfigMap " + options.witness_namespace + "/" + options.witness_name;
  auto config = kube::resolve_client_config(options.kubeconfig, kube::process_environment());
  if (!config.ok()) return make_error("--witness: " + config.message());
  kube::HttpOptions http;
  http.read_timeout = std::chrono::seconds(30);
  auto client = kube::HttpClient::create(*config, http);
  if (!client.ok()) return make_error("--witness: " + client.message());
  kube::Request get;
  get.target = witness_configmap_path(options.witness_namespace, options.witness_name);
  auto answer = (*client)->send(get);
  if (!answer.ok()) return make_error("--witness: cannot read " + where + ": " + answer.message());
  if (answer->status == 404) {
    exit_code = kExitCheckFailed;
    return make_error("witness: " + where + " does not exist on " + config->source +
                      ", so nothing witnesses this journal (serve writes it once it exists: "
                      "ops/kubernetes/base/journal-witness.yaml)");
  }
  if (!answer->ok()) {
    return make_error("--witness: GET " + get.target + " on " + config->source + " answered " +
                      std::to_string(answer->status) + "; reading it needs get on that ConfigMap");
  }
  auto configmap = parse_witness_configmap(answer->body);
  if (!configmap.ok()) return make_error("--witness: " + where + ": " + configmap.message());
  return configmap;
}

}  // namespace

int run_journal_verify(const JournalVerifyOptions& options) {
  constexpr std::string_view kCommand = "journal verify";
  TerminalProgress progress("verifying", 0);
  auto on_progress = [&](uint64_t seq, uint64_t n) { progress.update(n, seq); };
  std::optional<journal::VerifyingKey> key;
  if (!options.public_key_file.empty()) {
    auto loaded = journal::VerifyingKey::load(options.public_key_file);
    if (!loaded.ok()) return fail_command(kCommand, "--public-key: " + loaded.message(), kExitUsage);
    key = std::move(loaded).value();
  }
  const journal::VerifyingKey* public_key = key ? &*key : nullptr;
  // Read before the journal is opened: a journal being written is then never behind its witness.
  std::optional<WitnessConfigMap> witness;
  std::string witness_where;
  if (options.witness || !options.witness_file.empty()) {
    int exit_code = kExitJournalUnreadable;
    auto read = read_witness(options, witness_where, exit_code);
    if (!read.ok()) return fail_command(kCommand, read.message(), exit_code);
    witness = std::move(read).value();
  }
  journal::VerifyReport report;
  std::unique_ptr<journal::JournalReader> reader;
  if (options.source.kind == JournalSource::Kind::export_file) {
    if (options.source.path == "-") {
      widen_pipe(STDIN_FILENO);
      report = journal::verify_export(std::cin, on_progress, public_key);
    } else {
      std::ifstream in(options.source.path, std::ios::binary);
      if (!in) {
        return fail_command(kCommand, "cannot read export file " + options.source.path, kExitJournalUnreadable);
      }
      report = journal::verify_export(in, on_progress, public_key);
    }
  } else if (options.source.kind == JournalSource::Kind::archive) {
    int exit_code = kExitJournalUnreadable;
    auto verified = verify_archived_history(kCommand, options.source, public_key, on_progress, exit_code);
    if (!verified) return exit_code;
    report = *verified;
  } else {
    reader = open_journal_for_reading(kCommand, options.source.path);
    if (!reader) return kExitJournalUnreadable;
    auto verified =
        journal::verify_journal(*reader, std::filesystem::path(options.source.path) / "HEAD", on_progress, public_key);
    if (!verified.ok()) return fail_command(kCommand, verified.message(), kExitJournalUnreadable);
    report = *verified;
  }
  const std::string line = journal::render_verify_report(report);
  if (report.broken) return fail_command(kCommand, line, kExitCheckFailed);
  std::string witness_line;
  if (witness) {
    const journal::WitnessReport checked = journal::check_witness(*reader, witness->data, witness_where, public_key);
    witness_line = journal::render_witness_report(checked);
    if (checked.disagreement) return fail_command(kCommand, witness_line, kExitCheckFailed);
  }
  if (const uint64_t uncovered = journal::records_after_signature(report); uncovered > 0) {
    std::fprintf(stderr,
                 "koordq journal verify: warning: %llu records (seq %llu..%llu) are not covered by a signature: "
                 "written since HEAD was last signed (by a serve writing now, or one that stopped before signing "
                 "HEAD, whose next start signs them), or appended by someone without the key\n",
                 static_cast<unsigned long long>(uncovered), static_cast<unsigned long long>(report.signed_seq + 1),
                 static_cast<unsigned long long>(report.last_seq));
  }
  std::printf("%s\n", line.c_str());
  if (!witness_line.empty()) std::printf("%s\n", witness_line.c_str());
  return kExitSuccess;
}

int run_journal_stat(const JournalStatOptions& options) {
  constexpr std::string_view kCommand = "journal stat";
  int exit_code = kExitJournalUnreadable;
  auto history = open_history(kCommand, options.source, {}, &exit_code);
  if (!history) return exit_code;
  auto stat = journal::journal_stat(*history->reader);
  if (!stat.ok()) return fail_command(kCommand, stat.message(), kExitJournalUnreadable);
  if (history->stored_bytes) stat->bytes = *history->stored_bytes;
  const std::string text =
      options.output == StatOutput::json ? journal::render_stat_json(*stat) : journal::render_stat_text(*stat);
  std::fputs(text.c_str(), stdout);
  return kExitSuccess;
}

namespace {

// The journal is held by a running serve: it owns the primary RocksDB instance, so it makes the
// checkpoint, asked over its debug listener (§24.4).
int checkpoint_through_serve(std::string_view command, const JournalCheckpointOptions& options) {
  std::ifstream file(debug_listener_file(options.journal_dir));
  std::string address;
  if (!file || !std::getline(file, address) || address.rfind(':') == std::string::npos) {
    return fail_command(command,
                        "the journal is held by a running koordq serve without its debug listener; restart it "
                        "with --enable-api-handler, or stop it first",
                        kExitJournalUnreadable);
  }
  kube::ClientConfig config;
  config.tls = false;
  config.host = address.substr(0, address.rfind(':'));
  config.port = address.substr(address.rfind(':') + 1);
  config.source = "the debug listener of the serve holding " + options.journal_dir;
  kube::HttpOptions http;
  http.retry.max_attempts = 1;
  http.read_timeout = std::chrono::minutes(10);  // a checkpoint of a large journal takes a while
  auto client = kube::HttpClient::create(config, http);
  if (!client.ok()) return fail_command(command, client.message(), kExitJournalUnreadable);
  std::error_code ec;
  const std::string target = std::filesystem::absolute(options.target_dir, ec).lexically_normal().string();
  kube::Request request;
  request.verb = kube::Verb::kPost;
  request.target = "/apis/journal/v1/checkpoint?dir=" + kube::query_escape(target);
  request.headers.emplace_back(api::kCheckpointHeader, "1");
  auto answer = (*client)->send(request);
  if (!answer.ok()) {
    return fail_command(command, "cannot reach the serve holding the journal at " + address + ": " + answer.message(),
                        kExitJournalUnreadable);
  }
  rapidjson::Document doc;
  doc.Parse(answer->body.data(), answer->body.size());
  if (!answer->ok()) {
    const bool has_error = !doc.HasParseError() && doc.IsObject() && doc.HasMember("error") && doc["error"].IsString();
    return fail_command(
        command,
        "the serve holding the journal refused the checkpoint: " +
            (has_error ? std::string(doc["error"].GetString()) : "HTTP " + std::to_string(answer->status)),
        kExitJournalUnreadable);
  }
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("seq") || !doc["seq"].IsUint64()) {
    return fail_command(command, "the serve holding the journal answered without a seq", kExitJournalUnreadable);
  }
  std::printf("checkpoint of seq %llu written to %s\n", static_cast<unsigned long long>(doc["seq"].GetUint64()),
              options.target_dir.c_str());
  return kExitSuccess;
}

}  // namespace

int run_journal_checkpoint(const JournalCheckpointOptions& options) {
  constexpr std::string_view kCommand = "journal checkpoint";
  std::error_code ec;
  if (!std::filesystem::is_directory(std::filesystem::path(options.journal_dir) / "db", ec)) {
    return fail_command(kCommand, "no journal in " + options.journal_dir + "; pass --journal-dir",
                        kExitJournalUnreadable);
  }
  journal::JournalOptions open_options;
  open_options.dir = options.journal_dir;
  open_options.on_corruption = journal::CorruptionPolicy::kFail;
  open_options.appends = false;  // a copy: a signed journal keeps HEAD's signature without the key
  auto j = journal::Journal::open(open_options);
  if (!j.ok()) {
    if (j.message().find("lock") != std::string::npos) return checkpoint_through_serve(kCommand, options);
    return fail_command(kCommand, j.message(), kExitJournalUnreadable);
  }
  auto seq = (*j)->checkpoint(options.target_dir);
  if (!seq.ok()) return fail_command(kCommand, seq.message(), kExitJournalUnreadable);
  std::printf("checkpoint of seq %llu written to %s\n", static_cast<unsigned long long>(*seq),
              options.target_dir.c_str());
  return kExitSuccess;
}

}  // namespace koordq::cmd
