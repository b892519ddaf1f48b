// One filled-in journal record of each kind (record.capnp), every field set, for tests.
#pragma once

#include <string>

#include <capnp/message.h>

#include "schema/record.capnp.h"
#include "schema/wire_codec.hpp"
#include "tests/support/model_samples.hpp"

namespace koordq::samples {

inline capnp::Data::Reader data_of(const std::string& s) {
  return capnp::Data::Reader(reinterpret_cast<const kj::byte*>(s.data()), s.size());
}

inline void fill_unit_ref(wire::UnitRef::Builder ref) {
  ref.setNamespace("team-a");
  ref.setName("pytorch-resnet-7");
  ref.setUid("5f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f");
  ref.setQuota("team-a");
  ref.setQueue("team-a");
}

inline void fill_config(wire::Config::Builder config) {
  auto flags = config.initFlags(2);
  flags[0].setName("oversellrate");
  flags[0].setValue("1.2");
  flags[1].setName("queue-namespace");
  flags[1].setValue("koord-queue");
  config.setBinaryVersion("0.1.0");
  config.setBinaryRevision("337da7e");
  config.setDecisionLogicVersion(3);
  config.setJournalUuid("0f8e7d6c-5b4a-4938-8271-605f4e3d2c1b");
  config.setSchemaMajor(wire::SCHEMA_MAJOR);
  config.setSchemaMinor(wire::SCHEMA_MINOR);
  auto quarantined = config.getQuarantinedJournal().initValue();
  quarantined.setPath("/var/lib/koordq/journal.quarantined-20260420T080000Z");
  quarantined.setLastIntactSeq(41'999);
  quarantined.setHeadHash(data_of(std::string(32, '\x5a')));
  config.setPluginConfig("");
}

inline void fill_decision(wire::Decision::Builder d) {
  fill_unit_ref(d.initTarget().initUnit());
  d.setKind(wire::Decision::Kind::PREEMPT);
  d.setReason("limited quotaName:team-a, limited resKey:cpu,; preempt succeed");
  auto patch = d.getStatusPatch().initValue();
  patch.setResourceVersion("48213");
  patch.getMessage().setValue("limited quotaName:team-a, limited resKey:cpu,; preempt succeed");
  patch.getAttempts().setValue(4);
  patch.getLastUpdateTime().setValue(kApril20 + 9 * kSecond);
  const auto unit = realistic_queue_unit();
  auto admissions = patch.getAdmissions().initValue(static_cast<unsigned>(unit.status.admissions.size()));
  for (unsigned i = 0; i < admissions.size(); ++i) schema::write_admission(admissions[i], unit.status.admissions[i]);
  patch.getAdmissionChecks().initValue(0);  // present and empty: "admissionChecks": []
  d.getSpecQueuePatch().setValue("team-a");
  auto events = d.initEvents(1);
  auto involved = events[0].initInvolvedObject();
  involved.setKind("QueueUnit");
  involved.setApiVersion("scheduling.x-k8s.io/v1alpha1");
  involved.setNamespace("team-b");
  involved.setName("victim-1");
  involved.setUid("uid-victim-1");
  events[0].setType(wire::KubeEvent::Type::WARNING);
  events[0].setReason("Preempted");
  events[0].setMessage("Preempted by team-a/pytorch-resnet-7 in queue team-a");
  auto victims = d.initVictims(1);
  auto victim = victims[0].initUnit();
  victim.setNamespace("team-b");
  victim.setName("victim-1");
  victim.setUid("uid-victim-1");
  victim.setQuota("team-b");
  victim.setQueue("team-a");
  victims[0].setReplicas(2);
  auto steps = d.initQuotaCheck(2);
  steps[0].setQuota("team-a");
  steps[0].setResource("cpu");
  steps[0].setUsed(30'000);
  steps[0].setRequest(36'300);
  steps[0].setLimit(40'000);
  steps[0].setPass(false);
  steps[1].setQuota("team-a");
  steps[1].setResource("memory");
  steps[1].setUsed(0);
  steps[1].setRequest(1);
  steps[1].setLimit(2);
  steps[1].setPass(true);
}

inline void fill_queue_decisions(capnp::List<wire::Decision>::Builder decisions) {
  // decisions[0]: a unit decision; the others exercise every kind of Queue write.
  fill_decision(decisions[0]);
  for (unsigned i = 1; i < decisions.size(); ++i) {
    auto d = decisions[i];
    d.initTarget().initQueue().setName("team-a");
    auto write = d.getQueueWrite().initValue();
    switch (i % 5) {
      case 1:
        d.setKind(wire::Decision::Kind::PUBLISH_QUEUE_ITEMS);
        schema::write_queue_item_details(write.initQueueItemDetails(), *realistic_queue().status.queue_item_details);
        break;
      case 2: {
        d.setKind(wire::Decision::Kind::QUEUE_USAGE_ANNOTATIONS);
        auto annotations = write.initUsageAnnotations(1);
        annotations[0].setKey("alibabacloud.com/queue-used");
        annotations[0].setValue(R"({"cpu":2000})");
        break;
      }
      case 3:
        d.setKind(wire::Decision::Kind::QUEUE_CREATE);
        schema::write_queue(write.initCreate(), realistic_queue());
        break;
      case 4: {
        d.setKind(wire::Decision::Kind::QUEUE_PATCH);
        auto patch = write.initPatch();
        patch.getQueuePolicy().setValue("Block");
        auto labels = patch.initLabels(1);
        labels[0].setKey("quota.scheduling.koordinator.sh/parent");
        labels[0].setRemove();
        auto annotations = patch.initAnnotations(1);
        annotations[0].setKey("quota-koord-queue-enable");
        annotations[0].setSet("true");
        break;
      }
      case 0:
        d.setKind(wire::Decision::Kind::QUEUE_DELETE);
        write.setDelete();
        break;
    }
  }
}

// Fills `record` as a record of `kind` with every field of that kind set.
inline void fill_sample_record(wire::Record::Builder record, wire::Record::Body::Which kind) {
  record.setSeq(42);
  record.setTime(kApril20 + 123'456'789);
  record.setPrevHash(data_of(std::string(32, '\x11')));
  record.setHash(data_of(std::string(32, '\x22')));
  auto body = record.initBody();
  switch (kind) {
    case wire::Record::Body::CONFIG:
      fill_config(body.initConfig());
      break;
    case wire::Record::Body::ROLE: {
      auto role = body.initRole();
      role.setEvent(wire::Role::Event::LOST);
      role.setIdentity("koordq-0_3f2e1d0c-b9a8-4765-8432-10fedcba9876");
      role.setLeaseTransitions(7);
      break;
    }
    case wire::Record::Body::RELIST: {
      auto relist = body.initRelist();
      relist.setPhase(wire::Relist::Phase::END);
      relist.setResource(wire::Resource::ELASTIC_QUOTAS);
      relist.setResourceVersion("99120");
      break;
    }
    case wire::Record::Body::WATCH: {
      auto watch = body.initWatch();
      const auto unit = realistic_queue_unit();
      watch.setEventType(wire::Watch::EventType::MODIFIED);
      watch.setObjectKind(wire::ObjectKind::QUEUE_UNIT);
      watch.setNamespace(unit.metadata.namespace_);
      watch.setName(unit.metadata.name);
      watch.setUid(unit.metadata.uid);
      watch.setResourceVersion(unit.metadata.resource_version);
      schema::write_watched_object(watch.initObject(), unit);
      watch.setRawJson(R"({"kind":"QueueUnit","spec":{"template":{"env":[{"value":"<redacted sha256:00>"}]}}})");
      watch.setRawMode(wire::Watch::RawMode::REDACTED);
      watch.setSynthesized(true);
      break;
    }
    case wire::Record::Body::TICK:
      body.setTick();
      break;
    case wire::Record::Body::ROUND: {
      auto round = body.initRound();
      round.setBasis(41);
      fill_queue_decisions(round.initDecisions(6));
      break;
    }
    case wire::Record::Body::OUTCOME: {
      auto outcome = body.initOutcome();
      outcome.setDecisionSeq(40);
      outcome.setDecisionIndex(3);
      outcome.setWriteIndex(1);
      outcome.setResult(wire::Outcome::Result::CONFLICT);
      outcome.setHttpCode(409);
      outcome.setMessage("the object has been modified; please apply your changes to the latest version");
      outcome.setResourceVersion("48214");
      outcome.setWriteKind(wire::Outcome::WriteKind::EVENT);
      fill_unit_ref(outcome.initTarget().initUnit());
      break;
    }
  }
}

inline constexpr wire::Record::Body::Which kAllRecordKinds[] = {
    wire::Record::Body::CONFIG, wire::Record::Body::ROLE,  wire::Record::Body::RELIST,  wire::Record::Body::WATCH,
    wire::Record::Body::TICK,   wire::Record::Body::ROUND, wire::Record::Body::OUTCOME,
};

}  // namespace koordq::samples
