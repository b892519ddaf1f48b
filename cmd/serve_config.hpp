// What `serve` derives from its flags for the rest of the process: the decision settings, the
// journal options, and the `config` record that opens every start of serve in the journal.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "actors/core/decision_config.hpp"
#include "actors/runtime/decision_engine.hpp"
#include "cmd/serve_flags.hpp"
#include "controller/serve_loop.hpp"
#include "controller/serve_start.hpp"
#include "journal/capnp_record_body.hpp"
#include "journal/journal.hpp"
#include "journal/retention.hpp"
#include "schema/raw_object.hpp"

namespace koordq::cmd {

actors::DecisionConfig decision_config_of(const ServeOptions& options);
journal::JournalOptions journal_options_of(const ServeOptions& options);
// --journal-retention (an age or a size), --journal-max-size and --snapshot-retention.
journal::RetentionPolicy retention_policy_of(const ServeOptions& options);
// --journal-raw-objects.
schema::RawObjectMode raw_object_mode_of(const ServeOptions& options);
// What the serve loop and its start take from the flags.
controller::StartOptions start_options_of(const ServeOptions& options, actors::runtime::EngineOptions engine);
controller::LoopOptions loop_options_of(const ServeOptions& options);

// The `config` record (design.md §2): every flag with its effective value, the binary version
// and revision, the decision-logic version, the journal UUID and schema version, and the
// quarantined journal this one replaced, if any.
std::unique_ptr<journal::CapnpRecordBody> make_config_body(const ServeOptions& options, const std::string& uuid,
                                                           const std::optional<journal::QuarantineReport>& quarantined);

// A journal UUID derived from the simulator seed, so that two virtual-clock runs with one seed
// write byte-identical journals (behaviour.md §21): the version 5 UUID of the name
// `koordq-simulate-seed:<seed>` (base::name_uuid).
std::string uuid_from_seed(uint64_t seed);

}  // namespace koordq::cmd
