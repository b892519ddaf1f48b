#include "cmd/serve_config.hpp"

#include <algorithm>
#include <cstdlib>

#include "actors/wire/config_wire.hpp"
#include "base/uuid.hpp"
#include "cmd/build_info.hpp"
#include "schema/wire_schema_version.hpp"

namespace koordq::cmd {

actors::DecisionConfig decision_config_of(const ServeOptions& o) {
  // Through the flags the config record carries, so that a replay of the record decides exactly
  // as this process does (actors/wire/config_wire.hpp).
  actors::ConfigFlags flags;
  for (auto& [name, value] : effective_serve_flags(o)) {
    std::string bare = name;
    while (!bare.empty() && bare.front() == '-') bare.erase(bare.begin());
    flags.emplace_back(std::move(bare), std::move(value));
  }
  auto config = actors::decision_config_from_flags(flags);
  if (!config.ok()) {
    // Unreachable: effective_serve_flags renders every validated value in the syntax it parses.
    std::fprintf(stderr, "koordq: %s\n", config.message().c_str());
    std::abort();
  }
  return std::move(config).value();
}

journal::JournalOptions journal_options_of(const ServeOptions& o) {
  journal::JournalOptions j;
  j.dir = o.journal_dir;
  j.flush_on_close = true;
  j.writer.max_batch_delay_nanos = o.journal_max_batch_delay_ns;
  j.on_corruption = o.journal_on_corruption == CorruptionPolicy::fail ? journal::CorruptionPolicy::kFail
                                                                      : journal::CorruptionPolicy::kQuarantine;
  if (o.simulate && o.simulate_clock == SimulateClock::virtual_time) {
    j.new_uuid = uuid_from_seed(o.seed);
    // Its seed reproduces the journal byte for byte: no fsync per round (behaviour.md §21).
    j.writer.sync = false;
  }
  return j;
}

journal::RetentionPolicy retention_policy_of(const ServeOptions& o) {
  journal::RetentionPolicy p;
  if (o.journal_retention.kind == base::Retention::Kind::age) {
    p.max_age_nanos = o.journal_retention.value;
  } else {
    p.max_bytes = static_cast<uint64_t>(o.journal_retention.value);
  }
  const auto cap = static_cast<uint64_t>(o.journal_max_size_bytes);
  p.max_bytes = p.max_bytes ? std::min(*p.max_bytes, cap) : cap;
  p.keep_snapshots = static_cast<size_t>(o.snapshot_retention);
  return p;
}

std::string uuid_from_seed(uint64_t seed) {
  return base::name_uuid("koordq-simulate-seed:" + std::to_string(seed));
}

std::unique_ptr<journal::CapnpRecordBody> make_config_body(
    const ServeOptions& options, const std::string& uuid, const std::optional<journal::QuarantineReport>& quarantined) {
  auto body = std::make_unique<journal::CapnpRecordBody>();
  auto config = body->record().initBody().initConfig();
  auto flags = effective_serve_flags(options);
  // Where the journal lives is not how koordq decides, and two runs of one simulation in two
  // directories must write identical journals.
  std::erase_if(flags, [](const auto& f) { return f.first == "--journal-dir" || f.first == "journal-dir"; });
  std::sort(flags.begin(), flags.end());
  auto list = config.initFlags(static_cast<unsigned>(flags.size()));
  for (size_t i = 0; i < flags.size(); ++i) {
    std::string name = flags[i].first;
    while (!name.empty() && name.front() == '-') name.erase(name.begin());
    list[static_cast<unsigned>(i)].setName(name);
    list[static_cast<unsigned>(i)].setValue(flags[i].second);
  }
  config.setBinaryVersion(kVersion);
  config.setBinaryRevision(kGitRevision);
  config.setDecisionLogicVersion(actors::kDecisionLogicVersion);
  config.setJournalUuid(uuid);
  config.setSchemaMajor(schema::kWireSchemaMajor);
  config.setSchemaMinor(schema::kWireSchemaMinor);
  if (quarantined) {
    auto q = config.getQuarantinedJournal().initValue();
    q.setPath(quarantined->moved_to.string());
    q.setLastIntactSeq(quarantined->last_intact_seq);
    q.setHeadHash(capnp::Data::Reader(quarantined->head_hash.data(), quarantined->head_hash.size()));
  }
  return body;
}

schema::RawObjectMode raw_object_mode_of(const ServeOptions& o) {
  switch (o.journal_raw_objects) {
    case RawObjectsMode::full:
      return schema::RawObjectMode::kFull;
    case RawObjectsMode::off:
      return schema::RawObjectMode::kOff;
    case RawObjectsMode::redacted:
      break;
  }
  return schema::RawObjectMode::kRedacted;
}

controller::StartOptions start_options_of(const ServeOptions& options, actors::runtime::EngineOptions engine) {
  controller::StartOptions start;
  start.journal = journal_options_of(options);
  start.signing_key_file = options.journal_signing_key_file;
  start.decision = decision_config_of(options);
  start.engine = std::move(engine);
  return start;
}

controller::LoopOptions loop_options_of(const ServeOptions& options) {
  controller::LoopOptions loop;
  loop.raw_mode = raw_object_mode_of(options);
  loop.tick_min_interval_ns = options.tick_min_interval_ns;
  loop.upkeep.snapshot_every = static_cast<uint64_t>(options.snapshot_every);
  loop.upkeep.retention = retention_policy_of(options);
  return loop;
}

}  // namespace koordq::cmd
