#include "cmd/journal_witness_writer.hpp"

#include <algorithm>

#include "base/go_duration.hpp"
#include "base/log.hpp"
#include "base/rfc3339.hpp"
#include "cmd/witness_configmap.hpp"
#include "journal/witness.hpp"
#include "journal/witness_check.hpp"

namespace koordq::cmd {

WitnessUpdate next_witness_value(const std::map<std::string, std::string>& data, journal::JournalReader& reader,
                                 const WitnessWriterOptions& options, const journal::ChainHead& head,
                                 const std::string& time, const std::string& where) {
  WitnessUpdate update;
  journal::JournalWitness witness{options.journal_uuid, options.cluster, {}};
  if (auto found = data.find(options.journal_uuid); found != data.end()) {
    const journal::WitnessReport check = journal::check_witness(reader, data, where, nullptr);
    if (check.disagreement) {
      update.kind = WitnessUpdate::Kind::kDisagrees;
      update.reason = *check.disagreement;
      return update;
    }
    witness = std::move(journal::parse_journal_witness(found->second)).value();  // checked above
    if (!witness.entries.empty() && witness.entries.back().seq == head.seq) {
      update.kind = WitnessUpdate::Kind::kUnchanged;
      return update;
    }
  }
  journal::add_witness_entry(witness, journal::make_witness_entry(witness, head.seq, head.hash, time, options.key),
                             options.history);
  update.value = journal::render_journal_witness(witness);
  return update;
}

JournalWitnessWriter::JournalWitnessWriter(kube::HttpClient& client, WitnessWriterOptions options)
    : client_(client), options_(std::move(options)) {}

JournalWitnessWriter::~JournalWitnessWriter() {
  stop();
}

void JournalWitnessWriter::start() {
  thread_ = std::thread([this] { run(); });
}

void JournalWitnessWriter::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  cancellation_.cancel();
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::string JournalWitnessWriter::where() const {
  return "ConfigMap " + options_.namespace_name + "/" + options_.name;
}

JournalWitnessWriter::Outcome JournalWitnessWriter::problem(const std::string& message, bool error) {
  if (message == last_problem_) return error ? Outcome::kDisagrees : Outcome::kProblem;
  last_problem_ = message;
  if (error) {
    KQ_LOG_ERROR("journal witness: {}", message);
    return Outcome::kDisagrees;
  }
  KQ_LOG_WARNING("journal witness: {}", message);
  return Outcome::kProblem;
}

// Checks whether it leads every second (or every period, when shorter): the first attempt of a
// reign is made at once, later ones every period, whatever the last one gave.
void JournalWitnessWriter::run() {
  const auto check_every = std::min<std::chrono::nanoseconds>(options_.period, std::chrono::seconds(1));
  auto last_attempt = std::chrono::steady_clock::time_point::min();
  std::optional<uint64_t> attempted_reign;
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    lock.unlock();
    const kube::FencePass pass = kube::FencePass::of_current_reign(options_.fence);
    const auto now = std::chrono::steady_clock::now();
    if (pass.admits().ok() && (attempted_reign != pass.reign || now - last_attempt >= options_.period)) {
      if (write_once() != Outcome::kNotLeading) {
        last_attempt = now;
        attempted_reign = pass.reign;
      }
    }
    lock.lock();
    wake_.wait_for(lock, check_every, [this] { return stopping_; });
  }
}

JournalWitnessWriter::Outcome JournalWitnessWriter::write_once() {
  const kube::FencePass pass = kube::FencePass::of_current_reign(options_.fence);
  if (!pass.admits().ok()) return Outcome::kNotLeading;
  const std::string path = witness_configmap_path(options_.namespace_name, options_.name);
  const std::string rbac = "koordq needs get and patch on configmaps named " + options_.name + " in " +
                           options_.namespace_name +
                           " (ops/kubernetes/base/rbac.yaml), or --journal-witness-configmap=\"\"";
  for (int attempt = 0; attempt < 3; ++attempt) {
    kube::Request get;
    get.target = path;
    auto answer = client_.send(get, &cancellation_);
    if (!answer.ok()) return problem("cannot read " + where() + ": " + answer.message());
    if (answer->status == 404) {
      return problem(where() +
                     " does not exist, so the journal is not witnessed: create it (kubectl apply -f "
                     "ops/kubernetes/base/journal-witness.yaml); koordq never creates it, as its RBAC names that one "
                     "ConfigMap and create cannot be limited to a name");
    }
    if (!answer->ok()) return problem("GET " + path + " answered " + std::to_string(answer->status) + "; " + rbac);
    auto configmap = parse_witness_configmap(answer->body);
    if (!configmap.ok()) return problem(where() + ": " + configmap.message());
    const journal::ChainHead head = options_.head();
    const std::string time = base::format_rfc3339_seconds(options_.now());
    const WitnessUpdate update = next_witness_value(configmap->data, *options_.reader, options_, head, time, where());
    if (update.kind == WitnessUpdate::Kind::kUnchanged) {
      last_problem_.clear();
      return Outcome::kUnchanged;
    }
    if (update.kind == WitnessUpdate::Kind::kDisagrees) {
      return problem("the journal disagrees with its witness, which is left as it is: " + update.reason +
                         " (koordq journal verify --witness names it too)",
                     true);
    }
    kube::Request patch;
    patch.verb = kube::Verb::kPatch;
    patch.target = path;
    patch.body = witness_configmap_patch(configmap->resource_version, options_.journal_uuid, update.value);
    patch.content_type = "application/merge-patch+json";
    patch.has_precondition = true;
    patch.fence = pass;
    auto patched = client_.send(patch, &cancellation_);
    if (!patched.ok()) {
      if (!pass.admits().ok()) return Outcome::kNotLeading;
      return problem("cannot write " + where() + ": " + patched.message());
    }
    if (patched->status == 409) continue;  // written meanwhile: read it again
    if (!patched->ok()) {
      return problem("PATCH " + path + " answered " + std::to_string(patched->status) + "; " + rbac);
    }
    if (!last_problem_.empty() || witnessed_reign_ != pass.reign) {
      KQ_LOG_INFO("journal witness: {} holds seq {} of journal {} (then every {} while it moves)", where(), head.seq,
                  options_.journal_uuid, base::format_go_duration(options_.period.count()));
    }
    KQ_V(2)("journal witness: seq {} head {} written to {}", head.seq, journal::to_hex(head.hash), where());
    last_problem_.clear();
    witnessed_reign_ = pass.reign;
    return Outcome::kWritten;
  }
  return problem(where() + " changed under every write (409 three times); trying again in " +
                 base::format_go_duration(options_.period.count()));
}

}  // namespace koordq::cmd
